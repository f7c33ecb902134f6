import type { TaskOutput } from '@flagman/contract'

/** Log lines that arrive over the socket are appended in batches this often. */
export const LOG_FLUSH_MS = 500

export interface LogLine {
  time: string
  output: string
}

/**
 * Collects log lines and hands them over in one batch every LOG_FLUSH_MS, so a chatty task
 * re-renders the log at most twice a second.
 */
export class LogBuffer {
  private pending: LogLine[] = []
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly onFlush: (lines: LogLine[]) => void) {}

  start(): void {
    if (this.timer !== null) return
    this.timer = setInterval(() => this.flush(), LOG_FLUSH_MS)
  }

  push(line: LogLine): void {
    this.pending.push(line)
  }

  flush(): void {
    if (this.pending.length === 0) return
    const lines = this.pending
    this.pending = []
    this.onFlush(lines)
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer)
    this.timer = null
    this.pending = []
  }
}

/** Pixels from the bottom within which the log counts as scrolled to the end. */
const BOTTOM_SLACK_PX = 4

/** The log follows new lines only when the user was already at its bottom. */
export function isAtBottom(
  element: Pick<HTMLElement, 'scrollTop' | 'scrollHeight' | 'clientHeight'>,
) {
  return element.scrollHeight - element.scrollTop - element.clientHeight <= BOTTOM_SLACK_PX
}

export function toLogLines(output: TaskOutput[]): LogLine[] {
  return output.map(({ time, output: text }) => ({ time, output: text }))
}

/**
 * The stored log followed by the live lines it does not hold yet. Lines share a timestamp when
 * a process prints several in one millisecond, so lines stamped like the last stored one are
 * told apart by their text (each stored line accounts for one live line).
 */
export function mergeLogLines(stored: LogLine[], live: LogLine[]): LogLine[] {
  const last = stored.at(-1)?.time
  if (last === undefined) return live
  const storedAtLast = new Map<string, number>()
  for (let i = stored.length - 1; i >= 0 && stored[i]?.time === last; i -= 1) {
    const text = stored[i]?.output ?? ''
    storedAtLast.set(text, (storedAtLast.get(text) ?? 0) + 1)
  }
  const newer: LogLine[] = []
  for (const line of live) {
    if (line.time < last) continue
    if (line.time === last) {
      const count = storedAtLast.get(line.output) ?? 0
      if (count > 0) {
        storedAtLast.set(line.output, count - 1)
        continue
      }
    }
    newer.push(line)
  }
  return newer.length === 0 ? stored : [...stored, ...newer]
}
