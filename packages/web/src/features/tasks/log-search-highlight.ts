// Colour and cursor sequences are not part of what a person searches for.
// eslint-disable-next-line no-control-regex
const ANSI_SEQUENCE = /\u001b\[[0-9;?]*[A-Za-z]/g

export interface TextPart {
  text: string
  /** Whether this part is an occurrence of the searched text. */
  match: boolean
}

/**
 * The line without colour codes, cut into the occurrences of `needle` (any case) and the
 * text between them, so each occurrence can be marked.
 */
export function highlightParts(line: string, needle: string): TextPart[] {
  const text = line.replace(ANSI_SEQUENCE, '')
  const wanted = needle.toLowerCase()
  if (wanted === '') return [{ text, match: false }]
  const lower = text.toLowerCase()
  const parts: TextPart[] = []
  let from = 0
  // Lower-casing keeps lengths for the texts logs hold; where it does not, nothing is marked.
  if (lower.length !== text.length) return [{ text, match: false }]
  for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, from)) {
    if (at > from) parts.push({ text: text.slice(from, at), match: false })
    parts.push({ text: text.slice(at, at + wanted.length), match: true })
    from = at + wanted.length
  }
  if (from < text.length) parts.push({ text: text.slice(from), match: false })
  return parts
}
