import type { JobLine } from '@flagman/contract'

const FLUSH_MS = 50
const FLUSH_LINES = 1000
const MIN_SECRET_LINE = 8
/** Shorter encoded forms are not masked: they would hide ordinary text by chance. */
const MIN_ENCODED = 6
const MASK = '****'

function base64Url(text: string): string {
  return text.replace(/\+/g, '-').replace(/\//g, '_')
}

/**
 * The forms a secret takes when a script encodes it before printing:
 * - base64, standard and URL-safe, with and without padding;
 * - inside a longer base64 text (a whole file or a `user:password` pair encoded at once),
 *   the secret's bytes start at any of three offsets of a 3-byte group, so for each offset the
 *   run of characters that depends on the secret alone (the one or two characters at either
 *   end also depend on the neighbouring bytes and stay visible);
 * - URL encoding (`encodeURIComponent`, RFC 3986, with or without `/` escaped), and form
 *   encoding with `+` for spaces;
 * - JSON string escaping (how Ansible and most tools print a variable's value), also with
 *   every non-ASCII character as `\uXXXX` (Python's `json.dumps`).
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const forms: string[] = []
  const standard = bytes.toString('base64')
  forms.push(standard, standard.replace(/=+$/, ''), base64Url(standard))
  forms.push(base64Url(standard).replace(/=+$/, ''))
  for (const offset of [0, 1, 2]) {
    const total = offset + bytes.length
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64')
    const rest = total % 3
    const end = Math.floor(total / 3) * 4 + rest
    // Offset 1 shares 2 characters with the byte before, offset 2 shares 3.
    const core = encoded.slice([0, 2, 3][offset], end)
    forms.push(core, base64Url(core))
  }
  const uri = encodeURIComponent(secret)
  // RFC 3986 also escapes !'()*, as Python's quote does; quote and Jinja's urlencode keep '/'.
  const strict = uri.replace(
    /[!'()*]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  forms.push(uri, uri.replace(/%20/g, '+'), new URLSearchParams([['', secret]]).toString().slice(1))
  forms.push(strict, strict.replace(/%2F/g, '/'), uri.replace(/%2F/g, '/'))
  const json = JSON.stringify(secret).slice(1, -1)
  forms.push(
    json,
    json.replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
    ),
  )
  return forms.filter((form) => form !== secret && form.length >= MIN_ENCODED)
}

/** Strings none of which contains another: finding one of them is finding any of the list. */
function minimal(words: string[]): string[] {
  const byLength = [...words].sort((a, b) => a.length - b.length)
  const kept: string[] = []
  for (const word of byLength) {
    if (!kept.some((shorter) => word.includes(shorter))) kept.push(word)
  }
  return kept
}

/**
 * One regular expression finding any of the words, written as a trie (`ab(?:c|d)`) so the
 * engine looks at each position of a line once per branch, not once per word: with many
 * words (every secret in several encodings, the lines of a private key) a plain `a|b|c` is
 * far slower.
 */
function finder(words: string[]): RegExp | null {
  if (words.length === 0) return null
  interface Node {
    next: Map<string, Node>
  }
  const root: Node = { next: new Map() }
  for (const word of words) {
    let node = root
    for (let i = 0; i < word.length; i += 1) {
      const char = word.charAt(i)
      let child = node.next.get(char)
      if (child === undefined) {
        child = { next: new Map() }
        node.next.set(char, child)
      }
      node = child
    }
  }
  const single = (node: Node): [string, Node] | null =>
    node.next.size === 1 ? ([...node.next][0] ?? null) : null
  const escape = (char: string): string => char.replace(/[.*+?^${}()|[\]\\/-]/, '\\$&')
  // No word is a prefix of another (see `minimal`), so every leaf ends exactly one word.
  // Runs without branches are followed in a loop: a long secret must not nest deeply.
  const pattern = (start: Node): string => {
    let text = ''
    let node = start
    for (let only = single(node); only !== null; only = single(node)) {
      text += escape(only[0])
      node = only[1]
    }
    if (node.next.size === 0) return text
    const branches = [...node.next].map(([char, child]) => escape(char) + pattern(child))
    return `${text}(?:${branches.join('|')})`
  }
  return new RegExp(pattern(root))
}

/**
 * Collects lines for the hooks: masks secrets, timestamps at arrival and hands them over in
 * batches so a chatty process costs one callback per batch, not one per line.
 */
export class LineSink {
  private buffer: JobLine[] = []
  private timer: NodeJS.Timeout | null = null
  /** Every text to hide, longest first so a secret containing another one is hidden whole. */
  private readonly secrets: string[]
  /** Finds whether a line holds any of them at all; most lines hold none. */
  private readonly find: RegExp | null

  constructor(
    private readonly deliver: (lines: JobLine[]) => void,
    secrets: string[],
  ) {
    // Output is masked line by line, so a multi-line secret (a private key, a certificate)
    // is also masked through each of its longer lines. Encoded, it is one line: its encoded
    // forms are those of the whole (whose offset-0 form is also the start of the encoding of
    // the same text with a line more, such as a key file).
    const all = secrets
      .filter((secret) => secret.length > 0)
      .flatMap((secret) => [
        secret,
        ...encodedForms(secret),
        ...(secret.includes('\n')
          ? secret
              .split('\n')
              .map((line) => line.replace(/\r$/, '').trim())
              .filter((line) => line.length >= MIN_SECRET_LINE)
          : []),
      ])
    this.secrets = [...new Set(all)].sort((a, b) => b.length - a.length)
    this.find = finder(minimal(this.secrets))
  }

  mask(text: string): string {
    if (this.find === null || !this.find.test(text)) return text
    let out = text
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join(MASK)
    }
    return out
  }

  /** Lines of a chatty process arrive many per millisecond: format each millisecond once. */
  private stampMs = -1
  private stamp = ''

  private now(): string {
    const ms = Date.now()
    if (ms !== this.stampMs) {
      this.stampMs = ms
      this.stamp = new Date(ms).toISOString()
    }
    return this.stamp
  }

  /** When lines were last handed over. */
  private lastFlushAt = 0

  /**
   * Lines after a quiet spell go out on the next turn of the event loop (so a task's first
   * line is not held back); lines of a busy stream at most every FLUSH_MS.
   */
  push(text: string): void {
    this.buffer.push({ time: this.now(), output: this.mask(text) })
    if (this.buffer.length >= FLUSH_LINES) this.flush()
    else if (this.timer === null) {
      const delay = Math.max(0, this.lastFlushAt + FLUSH_MS - Date.now())
      this.timer = setTimeout(() => this.flush(), delay)
    }
  }

  /**
   * A new process starts: what is buffered goes out now and the process's first line goes
   * out on the next turn of the event loop, not held back by the lines before it.
   */
  startStream(): void {
    this.flush()
    this.lastFlushAt = 0
  }

  flush(): void {
    if (this.timer !== null) {
      clearTimeout(this.timer)
      this.timer = null
    }
    if (this.buffer.length === 0) return
    this.lastFlushAt = Date.now()
    const lines = this.buffer
    this.buffer = []
    try {
      this.deliver(lines)
    } catch {
      // A failing consumer must not break the job; the lines are its responsibility.
    }
  }
}

/** Splits a byte stream into lines (\n, with a trailing \r dropped); lines of any length. */
export class LineSplitter {
  private pending = ''
  private readonly decoder = new TextDecoder('utf-8')

  constructor(private readonly onLine: (line: string) => void) {}

  write(chunk: Buffer): void {
    const text = this.pending + this.decoder.decode(chunk, { stream: true })
    let start = 0
    let index = text.indexOf('\n', start)
    while (index !== -1) {
      this.emit(text.slice(start, index))
      start = index + 1
      index = text.indexOf('\n', start)
    }
    this.pending = text.slice(start)
  }

  end(): void {
    const rest = this.pending + this.decoder.decode()
    this.pending = ''
    if (rest.length > 0) this.emit(rest)
  }

  private emit(line: string): void {
    this.onLine(line.endsWith('\r') ? line.slice(0, -1) : line)
  }
}
