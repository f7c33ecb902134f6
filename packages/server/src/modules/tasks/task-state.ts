import type { TaskStatus } from '@flagman/contract'

/*
 * The only place that decides which status may follow which.
 *
 *   waiting ──► starting ──► running ─────────────► success | error
 *      │           │          │   ▲
 *      │           │          ▼   │
 *      │           │   waiting_confirmation ──► confirmed ──► running
 *      │           │          │
 *      │           │          └──► rejected ──► error
 *      ▼           ▼          ▼
 *   stopping ─────────────────────► stopped
 *
 *   Any unfinished status may also go straight to `stopped` (force stop) or `error`
 *   (preparation failure, server restart). Finished statuses (success, error, stopped)
 *   never change again. A task handed to a runner that is lost before it started its
 *   process goes back from `starting` to `waiting`.
 */
const ALLOWED: Record<TaskStatus, readonly TaskStatus[]> = {
  waiting: ['starting', 'stopping', 'stopped', 'error'],
  starting: ['running', 'waiting', 'stopping', 'stopped', 'error'],
  running: ['waiting_confirmation', 'success', 'error', 'stopping', 'stopped'],
  waiting_confirmation: ['confirmed', 'rejected', 'stopping', 'stopped', 'error'],
  confirmed: ['running', 'success', 'error', 'stopping', 'stopped'],
  rejected: ['error', 'stopped'],
  stopping: ['stopped', 'error'],
  stopped: [],
  success: [],
  error: [],
}

export function isTaskStatus(value: string): value is TaskStatus {
  return Object.prototype.hasOwnProperty.call(ALLOWED, value)
}

/** Whether a task may move from `from` to `to`. The same status is never a transition. */
export function canTransition(from: string, to: TaskStatus): boolean {
  if (!isTaskStatus(from)) return false
  return ALLOWED[from].includes(to)
}

/** Statuses of a task that holds a slot or waits for one. */
export const ACTIVE_STATUSES: readonly TaskStatus[] = [
  'waiting',
  'starting',
  'running',
  'waiting_confirmation',
  'confirmed',
  'rejected',
  'stopping',
]

/** Statuses of a task that holds a slot: every active one but `waiting`. */
export const BUSY_STATUSES: readonly TaskStatus[] = ACTIVE_STATUSES.filter((s) => s !== 'waiting')

/** Statuses a server restart interrupts: the process that ran them is gone. */
export const INTERRUPTED_STATUSES: readonly TaskStatus[] = [
  'starting',
  'running',
  'stopping',
  'waiting_confirmation',
  'confirmed',
  'rejected',
]

/**
 * The final status of a job: a task asked to stop never reports success, and a rejected
 * plan ends in error.
 */
export function finalStatus(
  current: string,
  result: 'success' | 'error' | 'stopped',
  stopRequested: boolean,
): TaskStatus {
  if (stopRequested || current === 'stopping') return 'stopped'
  if (current === 'rejected') return 'error'
  return result
}
