import type { JobSpec, RunnerJobProgress } from '@flagman/contract'
import type { TaskRow } from './tasks.repository.js'

/** A task a runner holds, as the poll reports it (`CurrentJobs`). */
export interface RunnerJobRef {
  id: number
  status: string
}

export interface RunnerNews {
  /** The runner's unfinished tasks and their statuses. */
  current: RunnerJobRef[]
  /** Tasks assigned to it that it has not reported running yet: to hand over as jobs. */
  starting: TaskRow[]
}

/**
 * What the runner protocol needs from the queue. The queue's truth is the task table, so
 * every method works from the database and any server process may answer a runner.
 */
export interface RunnerWork {
  /** The runner was heard from: it counts as online, and waiting tasks may go to it. */
  runnerSeen(runnerId: number): Promise<void>
  /** What the runner should know about now. */
  runnerNews(runnerId: number): Promise<RunnerNews>
  /** Resolves when something changes for the runner (a task assigned, a stop…), or after `ms`. */
  waitForRunnerNews(runnerId: number, ms: number, signal?: AbortSignal): Promise<void>
  /** The job of a task assigned to a runner, resolved and decrypted; `workRoot` is empty. */
  jobSpecFor(task: TaskRow): Promise<JobSpec>
  /**
   * Applies a runner's progress: log lines, commit, status. Throws BadRequestError
   * ('Task not assigned to this runner', 'Invalid task status', …) before writing anything
   * when any job of the batch is refused.
   */
  runnerReport(runnerId: number, jobs: RunnerJobProgress[]): Promise<void>
  /** The runner is deleted or unregistered: its unstarted tasks go back to the queue. */
  runnerRemoved(runnerId: number): Promise<void>
}
