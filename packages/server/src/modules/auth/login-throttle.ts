/**
 * Counts failed sign-ins per client address. After `maxAttempts` failures inside the
 * window the address is refused for `lockSeconds`; a success clears its count. Kept in
 * memory: a restart forgives, which is acceptable for slowing down password guessing.
 */
export class LoginThrottle {
  private readonly failures = new Map<
    string,
    { count: number; first: number; lockedUntil: number }
  >()

  constructor(
    private readonly maxAttempts: number,
    private readonly lockSeconds: number,
    private readonly windowMs = 15 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds the address must still wait, or 0 when it may try. */
  retryAfter(address: string): number {
    const entry = this.failures.get(address)
    if (!entry) return 0
    const left = entry.lockedUntil - this.now()
    return left > 0 ? Math.ceil(left / 1000) : 0
  }

  fail(address: string): void {
    const now = this.now()
    let entry = this.failures.get(address)
    if (!entry || now - entry.first > this.windowMs) {
      entry = { count: 0, first: now, lockedUntil: 0 }
      this.failures.set(address, entry)
    }
    entry.count += 1
    if (entry.count >= this.maxAttempts) {
      entry.lockedUntil = now + this.lockSeconds * 1000
      entry.count = 0
      entry.first = now
    }
    if (this.failures.size > 10_000) this.prune(now)
  }

  succeed(address: string): void {
    this.failures.delete(address)
  }

  private prune(now: number): void {
    for (const [key, entry] of this.failures) {
      if (entry.lockedUntil < now && now - entry.first > this.windowMs) this.failures.delete(key)
    }
  }
}
