import type { ClockTimers } from '../../src/modules/schedules/index.js'

interface Timer {
  at: number
  callback: () => void
}

/** A schedule clock's time source that only moves when the test moves it. */
export class ManualTimers implements ClockTimers {
  private readonly pending = new Set<Timer>()

  constructor(private time: number) {}

  now(): number {
    return this.time
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer = { at: this.time + ms, callback }
    this.pending.add(timer)
    return timer
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as Timer)
  }

  /** Moves the time forward by `ms`, running the timers that fall due in turn, on time. */
  advance(ms: number): void {
    const end = this.time + ms
    for (;;) {
      const next = [...this.pending]
        .filter((timer) => timer.at <= end)
        .sort((a, b) => a.at - b.at)[0]
      if (!next) break
      this.pending.delete(next)
      this.time = Math.max(this.time, next.at)
      next.callback()
    }
    this.time = end
  }

  /**
   * Moves the time forward by `ms` at once, as a process held up (paused, swapped out) sees
   * it when it runs again: every timer that fell due runs late, at the new time.
   */
  jump(ms: number): void {
    this.time += ms
    for (;;) {
      const due = [...this.pending].filter((timer) => timer.at <= this.time)
      if (due.length === 0) break
      for (const timer of due) {
        this.pending.delete(timer)
        timer.callback()
      }
    }
  }
}
