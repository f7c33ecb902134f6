import type { RunnerJobRef } from '../tasks/runner-work.js'

/**
 * What each runner was last told, as a fingerprint, so a long poll waits only when it would
 * otherwise repeat the previous answer. Memory only: after a restart the first poll of each
 * runner is answered at once, which costs one request.
 */
export class PollMemory {
  private readonly last = new Map<number, string>()

  static fingerprint(current: RunnerJobRef[], startingIds: number[]): string {
    const jobs = current.map((j) => `${j.id}:${j.status}`).sort()
    const starting = [...startingIds].sort((a, b) => a - b)
    return `${jobs.join(',')}|${starting.join(',')}`
  }

  /** Whether this answer repeats the last one given to the runner. */
  repeats(runnerId: number, fingerprint: string): boolean {
    return this.last.get(runnerId) === fingerprint
  }

  remember(runnerId: number, fingerprint: string): void {
    this.last.set(runnerId, fingerprint)
  }

  forget(runnerId: number): void {
    this.last.delete(runnerId)
  }
}
