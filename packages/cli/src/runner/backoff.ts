/** Growing pauses between retries against an unreachable server, capped at 5 s. */
const FIRST_MS = 250
const MAX_MS = 5000

export class Backoff {
  private delay = 0

  /** Waits before the next try; `announce` is called once per outage, with the first pause. */
  async wait(announce: (delayMs: number) => void, signal?: AbortSignal): Promise<void> {
    const first = this.delay === 0
    this.delay = first ? FIRST_MS : Math.min(MAX_MS, this.delay * 2)
    if (first) announce(this.delay)
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.delay)
      signal?.addEventListener('abort', done, { once: true })
      function done(): void {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
    })
  }

  /** The server answered again; `recovered` is called only if there was an outage. */
  reset(recovered?: () => void): void {
    if (this.delay !== 0) recovered?.()
    this.delay = 0
  }
}
