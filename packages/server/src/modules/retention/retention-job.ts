import type { Db } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import type { RetentionMetrics } from '../metrics/index.js'
import {
  removeEventsBefore,
  removeTasks,
  tasksBeforeId,
  tasksCreatedBefore,
  templatesOverLimit,
} from './retention-store.js'

/** Tasks removed together (their log lines go in chunks of their own). */
export const TASK_BATCH = 100
/** Events removed by one statement. */
export const EVENT_BATCH = 1_000

const DAY_MS = 86_400_000

export interface RetentionSettings {
  /** Days of task history kept in projects that set none; 0: for ever. */
  taskRetentionDays: number
  /** Days events are kept; 0: for ever. */
  eventRetentionDays: number
  /** Milliseconds between sweeps. */
  intervalMs: number
}

export interface RetentionDeps {
  db: Db
  dataDir: string
  log: FastifyBaseLogger
  settings: RetentionSettings
  /** Runs a sweep unless another instance is sweeping (answers false then). */
  alone: (work: () => Promise<void>) => Promise<boolean>
  metrics?: RetentionMetrics
  /** The clock; tests move it. */
  now?: () => number
}

export interface SweepOutcome {
  tasks: number
  events: number
}

/**
 * Removes task history older than each project's limit (or the server's default) and runs
 * beyond a project's limit per template, then events older than theirs. One sweep at a
 * time per cluster, in small batches; a sweep stops between batches when the server closes.
 */
export class RetentionJob {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<unknown> | null = null
  private stopping = false

  constructor(private readonly deps: RetentionDeps) {}

  /** Sweeps soon after start (at most a minute, less when the interval is shorter), then every interval. */
  start(): void {
    this.stopping = false
    this.schedule(Math.min(this.deps.settings.intervalMs, 60_000))
  }

  async stop(): Promise<void> {
    this.stopping = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await this.running?.catch(() => undefined)
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return
    this.timer = setTimeout(() => {
      this.timer = null
      this.running = this.sweep()
        .catch((error: unknown) => this.deps.log.error({ err: error }, 'Retention sweep failed'))
        .finally(() => {
          this.running = null
          this.schedule(this.deps.settings.intervalMs)
        })
    }, delayMs)
    this.timer.unref()
  }

  /** One sweep over every project and the events; answers what it removed. */
  async sweep(): Promise<SweepOutcome> {
    const outcome: SweepOutcome = { tasks: 0, events: 0 }
    await this.deps.alone(async () => {
      outcome.tasks = await this.sweepTasks()
      outcome.events = await this.sweepEvents()
    })
    if (outcome.tasks > 0 || outcome.events > 0) {
      this.deps.log.info(
        `Retention removed ${outcome.tasks} task(s) and ${outcome.events} event(s)`,
      )
    }
    this.deps.metrics?.retained('task', outcome.tasks)
    this.deps.metrics?.retained('event', outcome.events)
    return outcome
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now()
  }

  private async sweepTasks(): Promise<number> {
    const { db, dataDir, settings } = this.deps
    const projects = await db.kysely
      .selectFrom('project')
      .select(['id', 'task_retention_days', 'max_tasks_per_template'])
      .orderBy('id')
      .execute()
    let removed = 0
    for (const project of projects) {
      const days = project.task_retention_days ?? settings.taskRetentionDays
      if (days > 0) {
        const cutoff = new Date(this.now() - days * DAY_MS).toISOString()
        while (!this.stopping) {
          const due = await tasksCreatedBefore(db, project.id, cutoff, TASK_BATCH)
          await removeTasks(db, dataDir, due)
          removed += due.length
          if (due.length < TASK_BATCH) break
        }
      }
      const keep = project.max_tasks_per_template ?? 0
      if (keep > 0 && !this.stopping) {
        for (const template of await templatesOverLimit(db, project.id, keep)) {
          while (!this.stopping) {
            const due = await tasksBeforeId(
              db,
              template.templateId,
              template.oldestKeptId,
              TASK_BATCH,
            )
            await removeTasks(db, dataDir, due)
            removed += due.length
            if (due.length < TASK_BATCH) break
          }
        }
      }
      if (this.stopping) break
    }
    return removed
  }

  private async sweepEvents(): Promise<number> {
    const days = this.deps.settings.eventRetentionDays
    if (days <= 0) return 0
    const cutoff = new Date(this.now() - days * DAY_MS).toISOString()
    let removed = 0
    while (!this.stopping) {
      const count = await removeEventsBefore(this.deps.db, cutoff, EVENT_BATCH)
      removed += count
      if (count < EVENT_BATCH) break
    }
    return removed
  }
}
