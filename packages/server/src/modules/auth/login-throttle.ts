interface Entry {
  /** Failures inside the current window. */
  count: number
  /** Attempts that have started and not yet ended (the password check is slow). */
  pending: number
  first: number
  lockedUntil: number
}

/** Failure counts per key, each refused for a while once it reaches its limit. */
class Counters {
  private readonly entries = new Map<string, Entry>()

  constructor(
    private readonly max: number,
    private readonly lockMs: number,
    private readonly windowMs: number,
    private readonly now: () => number,
  ) {}

  /** Seconds the key must still wait, or 0 when it may try. */
  retryAfter(key: string): number {
    const entry = this.entries.get(key)
    if (!entry) return 0
    const left = entry.lockedUntil - this.now()
    if (left > 0) return Math.ceil(left / 1000)
    // As many guesses as are left are already being checked: wait for their outcome.
    return this.live(entry).count + entry.pending >= this.max ? 1 : 0
  }

  start(key: string): void {
    this.entry(key).pending += 1
  }

  fail(key: string): void {
    const now = this.now()
    const entry = this.live(this.entry(key))
    entry.pending = Math.max(0, entry.pending - 1)
    entry.count += 1
    if (entry.count >= this.max) {
      entry.lockedUntil = now + this.lockMs
      entry.count = 0
      entry.first = now
    }
    if (this.entries.size > 10_000) this.prune(now)
  }

  /** Ends an attempt; `forgive` also clears the key's failures. */
  end(key: string, forgive: boolean): void {
    const entry = this.entries.get(key)
    if (!entry) return
    entry.pending = Math.max(0, entry.pending - 1)
    if (forgive) entry.count = 0
    if (entry.pending === 0 && entry.count === 0 && entry.lockedUntil <= this.now()) {
      this.entries.delete(key)
    }
  }

  private entry(key: string): Entry {
    let entry = this.entries.get(key)
    if (!entry) {
      entry = { count: 0, pending: 0, first: this.now(), lockedUntil: 0 }
      this.entries.set(key, entry)
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

export type ThrottleOutcome = 'fail' | 'succeed'

export interface LoginThrottleOptions {
  /** Failures for one account from one address before that pair is refused. */
  maxAttempts: number
  /** Failures from one address, all accounts together, before the address is refused. */
  maxAttemptsPerAddress: number
  lockSeconds: number
  windowMs?: number
  now?: () => number
}

/**
 * The account part of a throttle key: the login or email as typed, trimmed and ignoring
 * case, so `Admin` and ` admin` count together. Unknown accounts are counted exactly like
 * existing ones, so a lock tells nothing about whether an account exists.
 */
export function accountKey(login: string): string {
  return login.trim().toLowerCase().slice(0, 256)
}

/**
 * Slows down password guessing. Failed sign-ins are counted per (client address, account):
 * after `maxAttempts` failures inside the window that pair is refused for `lockSeconds`,
 * while the same account from other addresses, and other accounts from the same address,
 * may still sign in; a success clears the pair's count. Failures are also counted per
 * address across all accounts, with the higher `maxAttemptsPerAddress`, so one address can
 * not go on guessing by changing the name; a success does not clear that count. Attempts
 * still being checked count too, so a burst of parallel guesses can not all slip in before
 * the first one fails. Kept in memory: a restart forgives, which is acceptable for slowing
 * down password guessing. Several server instances share their outcomes (`onOutcome`,
 * `applyElsewhere`), so guesses spread over them are counted together.
 */
export class LoginThrottle {
  private readonly pairs: Counters
  private readonly addresses: Counters
  private readonly listeners: ((
    outcome: ThrottleOutcome,
    address: string,
    login: string,
  ) => void)[] = []

  constructor(options: LoginThrottleOptions) {
    const windowMs = options.windowMs ?? 15 * 60 * 1000
    const now = options.now ?? Date.now
    const lockMs = options.lockSeconds * 1000
    this.pairs = new Counters(options.maxAttempts, lockMs, windowMs, now)
    this.addresses = new Counters(options.maxAttemptsPerAddress, lockMs, windowMs, now)
  }

  /** Seconds the address must still wait before trying this account, or 0. */
  retryAfter(address: string, login: string): number {
    return Math.max(
      this.pairs.retryAfter(pairKey(address, login)),
      this.addresses.retryAfter(address),
    )
  }

  /**
   * Starts an attempt: returns the seconds to wait (the attempt is refused), or 0 when it
   * may go on; then exactly one of `fail`, `succeed` or `abandon` must follow.
   */
  begin(address: string, login: string): number {
    const wait = this.retryAfter(address, login)
    if (wait > 0) return wait
    this.pairs.start(pairKey(address, login))
    this.addresses.start(address)
    return 0
  }

  fail(address: string, login: string): void {
    this.applyElsewhere('fail', address, login)
    for (const listener of this.listeners) listener('fail', address, login)
  }

  succeed(address: string, login: string): void {
    this.applyElsewhere('succeed', address, login)
    for (const listener of this.listeners) listener('succeed', address, login)
  }

  /** Calls `listener` with each decided attempt (for the other server instances). */
  onOutcome(listener: (outcome: ThrottleOutcome, address: string, login: string) => void): void {
    this.listeners.push(listener)
  }

  /**
   * Counts an attempt decided here or on another server instance (whose own attempt was
   * never pending here: the pending counts stay at zero).
   */
  applyElsewhere(outcome: ThrottleOutcome, address: string, login: string): void {
    if (outcome === 'fail') {
      this.pairs.fail(pairKey(address, login))
      this.addresses.fail(address)
    } else {
      this.pairs.end(pairKey(address, login), true)
      this.addresses.end(address, false)
    }
  }

  /** Ends an attempt that could not be decided (the check itself failed). */
  abandon(address: string, login: string): void {
    this.pairs.end(pairKey(address, login), false)
    this.addresses.end(address, false)
  }
}

function pairKey(address: string, login: string): string {
  // A newline can not be part of an address, so distinct pairs never share a key.
  return `${address}\n${accountKey(login)}`
}
