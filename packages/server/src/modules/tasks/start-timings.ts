import type { TaskStartTimings } from '@flagman/contract'
import { TaskStartTimings as TaskStartTimingsSchema } from '@flagman/contract'
import { performance } from 'node:perf_hooks'

/*
 * A task's start timings (see TaskStartTimings in the contract). Every mark is a time on the
 * one clock of this process, in epoch milliseconds with sub-millisecond precision; phases are
 * rounded down and the total up, so the phases never add up to more than the total.
 */

/** Now, in epoch milliseconds, on the clock the marks are compared with. */
export const clockNow = (): number => performance.timeOrigin + performance.now()

const down = (ms: number): number => Math.max(0, Math.floor(ms))
const up = (ms: number): number => Math.max(0, Math.ceil(ms))

/** The executor's phases, in milliseconds (see JobStartPhases of the executor). */
export interface ExecutorPhases {
  writingFiles: number
  preparingRepository: number
  spawning: number
}

export interface LocalStartMarks {
  /** The task's `created` column. */
  created: string
  claimedAt: number
  jobReadyAt: number
  /** When the app's first process was reported running. */
  startedAt: number
  phases: ExecutorPhases
}

/** The start timings of a task this process ran itself. */
export function localStartTimings(marks: LocalStartMarks): TaskStartTimings {
  const created = Date.parse(marks.created)
  return {
    queued_ms: down(marks.claimedAt - created),
    building_job_ms: down(marks.jobReadyAt - marks.claimedAt),
    writing_files_ms: down(marks.phases.writingFiles),
    preparing_repository_ms: down(marks.phases.preparingRepository),
    spawning_ms: down(marks.phases.spawning),
    total_ms: up(marks.startedAt - created),
  }
}

/** A runner's task as it is claimed: what is known so far is its time in the queue. */
export function claimedTimings(created: string, claimedAt: number): TaskStartTimings {
  const queued = down(claimedAt - Date.parse(created))
  return { queued_ms: queued, total_ms: queued }
}

/** A runner's task once the runner reports it running: the runner's part is added. */
export function runnerStartedTimings(
  stored: string | null,
  created: string,
  now: number,
): TaskStartTimings | null {
  const claimed = parseStartTimings(stored)
  if (claimed === null || claimed.runner_ms !== undefined) return null
  const createdAt = Date.parse(created)
  return {
    ...claimed,
    runner_ms: down(now - (createdAt + claimed.queued_ms)),
    total_ms: up(now - createdAt),
  }
}

/** The stored JSON as the API answers it; null when absent or not readable. */
export function parseStartTimings(text: string | null | undefined): TaskStartTimings | null {
  if (!text) return null
  try {
    const parsed = TaskStartTimingsSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}
