import { join } from 'node:path'
import type { Db } from '@flagman/db'
import { readRemoteHead } from '@flagman/executor'
import { Cron } from 'croner'
import type { FastifyBaseLogger } from 'fastify'
import { CRON_OPTIONS } from '../../lib/cron.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { createTask, loadJobRepository, type TaskQueue } from '../tasks/index.js'

export interface ScheduleClockDeps {
  db: Db
  box: SecretBox
  queue: TaskQueue
  dataDir: string
  log: FastifyBaseLogger
  /** How long `git ls-remote` may take before a commit check gives up. */
  remoteTimeoutMs?: number
  /** Where the clock reads the time and sets its timers (the system's by default). */
  timers?: ClockTimers
}

/** The time source of the clock; a test can hand in one it moves forward itself. */
export interface ClockTimers {
  /** Milliseconds since the epoch. */
  now(): number
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

const SYSTEM_TIMERS: ClockTimers = {
  now: () => Date.now(),
  // A waiting cron job never keeps the process alive on its own.
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
}

/** Longest single wait: a longer one is cut up, so a change of the system time is noticed. */
const MAX_WAIT_MS = 30_000

/** One schedule's cron job: waits for each time its expression names, then ticks. */
class CronJob {
  private handle: unknown = null
  private stopped = false

  constructor(
    private readonly cron: Cron,
    private readonly timers: ClockTimers,
    private readonly onTick: () => void,
  ) {
    this.arm(timers.now())
  }

  stop(): void {
    this.stopped = true
    if (this.handle !== null) this.timers.clearTimeout(this.handle)
    this.handle = null
  }

  /** Waits for the first time after `from` (ms) that the expression names. */
  private arm(from: number): void {
    const next = this.cron.nextRun(new Date(from))
    if (next === null) return
    const due = next.getTime()
    const wait = (): void => {
      if (this.stopped) return
      const now = this.timers.now()
      if (now < due) {
        this.handle = this.timers.setTimeout(wait, Math.min(due - now, MAX_WAIT_MS))
        return
      }
      this.handle = null
      this.onTick()
      // Times missed while the process was held up are not made up for.
      this.arm(Math.max(now, due))
    }
    wait()
  }
}

/** What one tick of a schedule did. */
export type TickOutcome =
  /** The schedule is gone (its template or project was deleted). */
  | { outcome: 'missing' }
  | { outcome: 'inactive' }
  /** The previous tick of the schedule is still checking the repository. */
  | { outcome: 'busy' }
  /** A commit check found the commit it saw last time. */
  | { outcome: 'unchanged'; commit: string }
  | { outcome: 'started'; taskId: number; commit: string | null }

/**
 * Runs the project schedules: one cron job per active schedule, in UTC. A tick reads the
 * schedule again and queues a task of its template; a commit check (a schedule with a
 * repository) first reads the head of the repository and queues a task only when the commit
 * differs from the one seen last time. Errors of a tick are logged, never thrown.
 */
export class ScheduleClock {
  private readonly jobs = new Map<number, CronJob>()
  /** Schedules whose tick is under way. */
  private readonly busy = new Set<number>()
  private readonly ticks = new Set<Promise<unknown>>()
  private loading: Promise<void> = Promise.resolve()
  private running = false

  private readonly timers: ClockTimers

  constructor(private readonly deps: ScheduleClockDeps) {
    this.timers = deps.timers ?? SYSTEM_TIMERS
  }

  /** Loads every active schedule; before this, reloads do nothing. */
  async start(): Promise<void> {
    this.running = true
    await this.reload()
  }

  /**
   * Reads the schedules again and replaces the cron jobs. Called after every change made
   * through the API; reloads run one after another, so the last change always wins.
   */
  reload(): Promise<void> {
    this.loading = this.loading.then(async () => {
      if (!this.running) return
      try {
        await this.load()
      } catch (error) {
        this.deps.log.error({ err: error }, 'Could not load the schedules')
      }
    })
    return this.loading
  }

  /** Ids of the schedules that have a cron job, for tests and diagnostics. */
  get scheduledIds(): number[] {
    return [...this.jobs.keys()].sort((a, b) => a - b)
  }

  /** Stops every cron job and waits for ticks under way. */
  async stop(): Promise<void> {
    this.running = false
    this.stopJobs()
    await this.loading
    this.stopJobs()
    await Promise.allSettled([...this.ticks])
  }

  /**
   * One tick of the schedule, as its cron job runs it. Errors are thrown to the caller; the
   * cron jobs log them instead.
   */
  async fire(id: number): Promise<TickOutcome> {
    const { db } = this.deps
    const row = await db.kysely
      .selectFrom('schedule')
      .innerJoin('template', 'template.id', 'schedule.template_id')
      .select([
        'schedule.id',
        'schedule.project_id',
        'schedule.template_id',
        'schedule.repository_id',
        'schedule.active',
        'schedule.last_commit_hash',
        'template.git_branch',
      ])
      .where('schedule.id', '=', id)
      .executeTakeFirst()
    if (!row) {
      this.drop(id)
      return { outcome: 'missing' }
    }
    if (!row.active) return { outcome: 'inactive' }
    if (this.busy.has(id)) return { outcome: 'busy' }
    this.busy.add(id)
    try {
      let commit: string | null = null
      if (row.repository_id !== null) {
        const repository = await loadJobRepository(
          db,
          this.deps.box,
          row.project_id,
          row.repository_id,
        )
        // The branch a task of the template would check out.
        commit = await readRemoteHead(repository, row.git_branch || repository.branch, {
          workRoot: join(this.deps.dataDir, 'work', `project_${row.project_id}`),
          timeoutMs: this.deps.remoteTimeoutMs,
        })
        if (commit === row.last_commit_hash) return { outcome: 'unchanged', commit }
        await db.kysely
          .updateTable('schedule')
          .set({ last_commit_hash: commit })
          .where('id', '=', id)
          .execute()
      }
      const task = await createTask(
        db,
        this.deps.queue,
        null,
        row.project_id,
        { template_id: row.template_id },
        { scheduleId: id },
      )
      return { outcome: 'started', taskId: task.id, commit }
    } finally {
      this.busy.delete(id)
    }
  }

  private async load(): Promise<void> {
    const rows = await this.deps.db.kysely
      .selectFrom('schedule')
      .select(['id', 'cron_format'])
      .where('active', '=', 1)
      .orderBy('id')
      .execute()
    this.stopJobs()
    for (const row of rows) {
      try {
        const cron = new Cron(row.cron_format, CRON_OPTIONS)
        this.jobs.set(row.id, new CronJob(cron, this.timers, () => this.tick(row.id)))
      } catch (error) {
        // Stored before validation existed, or restored from elsewhere: skipped, not fatal.
        this.deps.log.warn(
          { err: error },
          `Schedule ${row.id} has an invalid cron expression and does not run`,
        )
      }
    }
  }

  private tick(id: number): void {
    // While the server shuts down no task can be queued, so the tick has nothing to do.
    if (!this.running || !this.deps.queue.isAccepting) return
    const done = this.fire(id)
      .then((result) => {
        if (result.outcome === 'started') {
          this.deps.log.info(`Schedule ${id} queued task ${result.taskId}`)
        }
      })
      .catch((error: unknown) => {
        this.deps.log.error({ err: error }, `Schedule ${id} could not run`)
      })
      .finally(() => this.ticks.delete(done))
    this.ticks.add(done)
  }

  private drop(id: number): void {
    this.jobs.get(id)?.stop()
    this.jobs.delete(id)
  }

  private stopJobs(): void {
    for (const job of this.jobs.values()) job.stop()
    this.jobs.clear()
  }
}
