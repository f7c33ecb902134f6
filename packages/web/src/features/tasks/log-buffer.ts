import type { TaskOutput } from '@flagman/contract'

/** Log lines that arrive over the socket are appended in batches this often. */
export const LOG_FLUSH_MS = 500

export type LogLine = Pick<TaskOutput, 'time' | 'output'>

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
