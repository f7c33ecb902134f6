/**
 * Wakes the long polls of runners when something changes for them. In-process only: a poll
 * that is not woken still answers when its wait ends, so a change made by another server
 * process reaches the runner at the latest then.
 */
export class RunnerSignals {
  private readonly waiters = new Map<number, Set<() => void>>()

  notify(runnerId: number): void {
    const set = this.waiters.get(runnerId)
    if (!set) return
    this.waiters.delete(runnerId)
    for (const wake of set) wake()
  }

  wait(runnerId: number, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', wake)
        this.waiters.get(runnerId)?.delete(wake)
        resolve()
      }
      if (signal?.aborted) return resolve()
      const timer = setTimeout(wake, ms)
      signal?.addEventListener('abort', wake, { once: true })
      let set = this.waiters.get(runnerId)
      if (!set) this.waiters.set(runnerId, (set = new Set()))
      set.add(wake)
    })
  }

  closeAll(): void {
    for (const id of [...this.waiters.keys()]) this.notify(id)
  }
}
