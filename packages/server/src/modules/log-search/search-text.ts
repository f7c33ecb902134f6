/*
 * A search text is matched literally. Each database gets it in the form its matcher reads
 * as plain text, never as its own syntax: always as a bound parameter, never spliced in.
 */

/** `text` as a LIKE pattern holding it anywhere; `!` escapes (a backslash differs per database). */
export function likePattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`
}

/** `text` as one FTS5 string: a phrase of its trigrams, so `*`, `-`, NEAR… are plain text. */
export function fts5Phrase(text: string): string {
  return `"${text.replace(/"/g, '""')}"`
}

/** The FTS5 trigram tokenizer indexes runs of three characters; shorter texts match nothing. */
export function trigramSearchable(text: string): boolean {
  return [...text].length >= 3
}

/** Words InnoDB leaves out of a FULLTEXT index by default (INNODB_FT_DEFAULT_STOPWORD). */
const INNODB_STOPWORDS = new Set(
  (
    'a about an are as at be by com de en for from how i in is it la of on or that the this ' +
    'to was what when where who will with und www'
  ).split(' '),
)
const INNODB_MIN_TOKEN = 3
const INNODB_MAX_TOKEN = 84

/**
 * A boolean-mode FULLTEXT query that every line holding `text` satisfies, or null when the
 * text has no word the index holds. The index knows whole words, so each word of the text
 * is required as a word prefix (`+word*`); the caller checks the literal text on the lines
 * it finds. A text's first word is taken to start a word too: a search across tasks finds
 * `rror` inside `error` only within one task, where lines are scanned.
 */
export function fulltextTerms(text: string): string | null {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}_]+/u)
    .filter(
      (word) =>
        word.length >= INNODB_MIN_TOKEN &&
        word.length <= INNODB_MAX_TOKEN &&
        !INNODB_STOPWORDS.has(word),
    )
  if (words.length === 0) return null
  return words.map((word) => `+${word}*`).join(' ')
}
