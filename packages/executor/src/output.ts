import type { JobLine } from '@flagman/contract'

const FLUSH_MS = 50
const FLUSH_LINES = 1000
const MIN_SECRET_LINE = 8

/**
 * Collects lines for the hooks: masks secrets, timestamps at arrival and hands them over in
 * batches so a chatty process costs one callback per batch, not one per line.
 */
export class LineSink {
  private buffer: JobLine[] = []
  private timer: NodeJS.Timeout | null = null
  private readonly secrets: string[]

  constructor(
    private readonly deliver: (lines: JobLine[]) => void,
    secrets: string[],
  ) {
    // Output is masked line by line, so a multi-line secret (a private key, a certificate)
    // is also masked through each of its longer lines.
    const all = secrets.flatMap((secret) =>
      secret.includes('\n')
        ? [secret, ...secret.split('\n').map((line) => line.replace(/\r$/, '').trim())].filter(
            (part) => part === secret || part.length >= MIN_SECRET_LINE,
          )
        : [secret],
    )
    // Longest first so a secret containing another one is hidden whole.
    this.secrets = [...new Set(all.filter((s) => s.length > 0))].sort((a, b) => b.length - a.length)
  }

  mask(text: string): string {
    let out = text
    for (const secret of this.secrets) {
      if (out.includes(secret)) out = out.split(secret).join('****')
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
