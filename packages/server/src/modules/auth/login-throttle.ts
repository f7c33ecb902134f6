interface Entry {
  /** Failures inside the current window. */
  count: number
  /** Attempts that have started and not yet ended (the password check is slow). */
  pending: number
  first: number
  lockedUntil: number
}

/**
 * Counts failed sign-ins per client address. After `maxAttempts` failures inside the
 * window the address is refused for `lockSeconds`; a success clears its count. Attempts
 * still being checked count too, so a burst of parallel guesses can not all slip in before
 * the first one fails. Kept in memory: a restart forgives, which is acceptable for slowing
 * down password guessing.
 */
export class LoginThrottle {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly maxAttempts: number,
    private readonly lockSeconds: number,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must still wait, or 0 when it may try. */
  retryAfter(address: string): number {
    const entry = this.entries.get(address)
    if (!entry) return 0
    const left = entry.lockedUntil - this.now()
    if (left > 0) return Math.ceil(left / 1000)
    // As many guesses as are left are already being checked: wait for their outcome.
    return this.live(entry).count + entry.pending >= this.maxAttempts ? 1 : 0
  }

  /**
   * Starts an attempt: returns the seconds to wait (the attempt is refused), or 0 when it
   * may go on; then exactly one of `fail`, `succeed` or `abandon` must follow.
   */
  begin(address: string): number {
    const wait = this.retryAfter(address)
    if (wait > 0) return wait
    this.entry(address).pending += 1
    return 0
  }

  fail(address: string): void {
    const now = this.now()
    const entry = this.live(this.entry(address))
    entry.pending = Math.max(0, entry.pending - 1)
    entry.count += 1
    if (entry.count >= this.maxAttempts) {
      entry.lockedUntil = now + this.lockSeconds * 1000
      entry.count = 0
      entry.first = now
    }
    if (this.entries.size > 10_000) this.prune(now)
  }

  succeed(address: string): void {
    const entry = this.entries.get(address)
    if (!entry) return
    entry.pending = Math.max(0, entry.pending - 1)
    entry.count = 0
    if (entry.pending === 0 && entry.lockedUntil <= this.now()) this.entries.delete(address)
  }

  /** Ends an attempt that could not be decided (the check itself failed). */
  abandon(address: string): void {
    const entry = this.entries.get(address)
    if (entry) entry.pending = Math.max(0, entry.pending - 1)
  }

  private entry(address: string): Entry {
    let entry = this.entries.get(address)
    if (!entry) {
      entry = { count: 0, pending: 0, first: this.now(), lockedUntil: 0 }
      this.entries.set(address, entry)
    }
    return entry
  }

  /** The entry with its failure count restarted when its window has passed. */
  private live(entry: Entry): Entry {
    const now = this.now()
    if (now - entry.first > this.windowMs) {
      entry.count = 0
      entry.first = now
    }
    return entry
  }

  private prune(now: number): void {
    for (const [key, entry] of this.entries) {
      if (entry.pending === 0 && entry.lockedUntil < now && now - entry.first > this.windowMs) {
        this.entries.delete(key)
      }
    }
  }
}
