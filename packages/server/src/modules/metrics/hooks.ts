import type { TaskStartTimings } from '@flagman/contract'

/*
 * What other modules report to the metrics module. Each is optional where it is used, so a
 * module works the same without metrics (unit tests build queues and clocks without them).
 */

/** Output storage of the task log buffer. */
export interface LogMetrics {
  /** `count` lines were stored; the oldest of them had waited `oldestWaitMs` in the buffer. */
  linesStored(count: number, oldestWaitMs: number): void
}

/** The task queue: start timings of the tasks this process runs, and its log buffer. */
export interface TaskMetrics extends LogMetrics {
  /** A task's first process is running; `timings` as stored in `task.start_timings`. */
  taskStarted(timings: TaskStartTimings): void
}

/** The websocket clients of `/api/ws`. */
export interface RealtimeMetrics {
  /** How many clients are connected now; read at every scrape. */
  countClients(count: () => number): void
  /** A client too far behind was disconnected. */
  slowClientDropped(): void
}

/** How a schedule's due time ended (`started`, `missed`, `unchanged`, `failed`). */
export interface ScheduleMetrics {
  scheduleRun(outcome: string): void
}

/** Alert deliveries: one per attempt, `sent` or `failed`. */
export interface AlertMetrics {
  alertDelivery(channel: string, result: 'sent' | 'failed'): void
}

/** Rows the retention job removed. */
export interface RetentionMetrics {
  retained(kind: 'task' | 'event', count: number): void
}
