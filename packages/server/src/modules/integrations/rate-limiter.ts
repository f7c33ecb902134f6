/**
 * A token bucket per key (a webhook alias): `capacity` deliveries at once, refilled at
 * `perSecond`. At most `maxKeys` buckets are kept; the least recently used go first, so
 * random aliases can not grow memory without bound.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly capacity: number,
    private readonly perSecond: number,
    private readonly maxKeys = 10_000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Takes one token; returns 0 when allowed, else the seconds until one is available. */
  take(key: string): number {
    const now = this.now()
    const bucket = this.buckets.get(key) ?? { tokens: this.capacity, at: now }
    this.buckets.delete(key)
    bucket.tokens = Math.min(
      this.capacity,
      bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond,
    )
    bucket.at = now
    this.buckets.set(key, bucket)
    if (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next().value
      if (oldest !== undefined) this.buckets.delete(oldest)
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return 0
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond))
  }
}
