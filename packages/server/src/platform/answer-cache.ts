import type { WriteClock } from '@flagman/db'

/**
 * What a reusable answer is computed from: the data (everything but task logs), or the data
 * and the task logs.
 */
export type Reuse = 'data' | 'data-and-logs'

interface Stamp {
  readonly data: number
  /** The log clock, or -1 when the answer does not depend on logs. */
  readonly logs: number
}

interface Entry extends Stamp {
  readonly body: Buffer
}

interface Pending extends Stamp {
  readonly body: Promise<Buffer | undefined>
}

/**
 * Serialised answers of heavy read routes (template list, task history), kept while no write
 * could have changed them: each is stamped with the write clocks read before it was
 * computed, and it is reused only while they still read the same. Any write of this process,
 * committed before or during the computation, moves the clocks, so an answer is never older
 * than the last write. Requests that arrive while the same answer is being computed wait for
 * it instead of computing it again.
 *
 * Access is checked before the cache is asked, on every request; keys carry the caller, so
 * one user's answer is never another's. Bounded by total size, least recently used first.
 *
 * Writes of other processes are not seen: one server instance per database is assumed, as
 * everywhere else today.
 */
export class AnswerCache {
  readonly #entries = new Map<string, Entry>()
  readonly #pending = new Map<string, Pending>()
  #bytes = 0

  constructor(
    private readonly clock: WriteClock,
    private readonly maxBytes: number,
  ) {}

  get enabled(): boolean {
    return this.maxBytes > 0
  }

  /** Bytes of answers kept now. */
  get size(): number {
    return this.#bytes
  }

  /** The kept answer for `key`, or the one `compute` gives (kept when nothing moved meanwhile). */
  async answer(
    key: string,
    reuse: Reuse,
    compute: () => Promise<string | undefined>,
  ): Promise<Buffer | undefined> {
    const stamp = this.#stamp(reuse)
    const kept = this.#entries.get(key)
    if (kept !== undefined && same(kept, stamp)) {
      // Re-inserting keeps the map in least-recently-used order.
      this.#entries.delete(key)
      this.#entries.set(key, kept)
      return kept.body
    }
    const pending = this.#pending.get(key)
    if (pending !== undefined && same(pending, stamp)) return pending.body

    const body = compute().then((text) => (text === undefined ? undefined : Buffer.from(text)))
    this.#pending.set(key, { ...stamp, body })
    try {
      const result = await body
      if (result !== undefined && same(stamp, this.#stamp(reuse))) this.#keep(key, stamp, result)
      return result
    } finally {
      if (this.#pending.get(key)?.body === body) this.#pending.delete(key)
    }
  }

  #stamp(reuse: Reuse): Stamp {
    return { data: this.clock.data, logs: reuse === 'data' ? -1 : this.clock.logs }
  }

  #keep(key: string, stamp: Stamp, body: Buffer): void {
    // An answer bigger than a quarter of the room would push out everything else.
    if (body.length > this.maxBytes / 4) return
    const old = this.#entries.get(key)
    if (old !== undefined) {
      this.#bytes -= old.body.length
      this.#entries.delete(key)
    }
    this.#entries.set(key, { ...stamp, body })
    this.#bytes += body.length
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break
      this.#entries.delete(oldest)
      this.#bytes -= entry.body.length
    }
  }
}

function same(a: Stamp, b: Stamp): boolean {
  return a.data === b.data && a.logs === b.logs
}
