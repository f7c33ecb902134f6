import { join } from 'node:path'
import type { MissReason } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { readRemoteHead } from '@flagman/executor'
import type { Cron } from 'croner'
import type { FastifyBaseLogger } from 'fastify'
import { cronFor } from '../../lib/cron.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { AppError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import type { ScheduleMetrics } from '../metrics/hooks.js'
import { createTask, loadJobRepository, type TaskQueue } from '../tasks/index.js'
import {
  claimRun,
  findActiveSchedules,
  findActiveTask,
  finishRun,
  startEvaluating,
  type ClockRow,
} from './schedules.repository.js'

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
  /** Time zone of schedules that name none (UTC by default). */
  defaultTimezone?: string
  /**
   * Whether this instance still holds its place among the instances (always, by default):
   * asked before a due time is claimed, so that an instance paused past it can not fire late.
   */
  holdsPlace?: () => Promise<boolean>
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

/** Due times counted at most when the server was down; beyond, "at least" this many. */
const MAX_MISSED_COUNT = 10_000

/** One schedule's cron job: waits for each time its expression names, then ticks. */
class CronJob {
  private handle: unknown = null
  private stopped = false

  /** Waits for the times after `from` (ms). */
  constructor(
    private readonly cron: Cron,
    private readonly timers: ClockTimers,
    private readonly onTick: (due: number) => void,
    from: number,
  ) {
    this.arm(from)
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
      this.onTick(due)
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
  /** Another clock has dealt with this due time already. */
  | { outcome: 'taken' }
  /** This instance was taken for dead while it waited: the others deal with the time. */
  | { outcome: 'fenced' }
  /** The template still had a task that had not finished; no task was queued. */
  | { outcome: 'missed'; reason: 'template_busy'; taskId: number }
  /** A commit check found the commit it saw last time. */
  | { outcome: 'unchanged'; commit: string }
  | { outcome: 'started'; taskId: number; commit: string | null }

/** What the clock did at start with the times a schedule was due while the server was down. */
export interface CatchUp {
  scheduleId: number
  /** Due times missed (at most MAX_MISSED_COUNT are counted). */
  count: number
  /** The last of them. */
  due: string
  /** Set when the schedule's policy ran it once. */
  taskId: number | null
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}

/**
 * Runs the project schedules: one cron job per active schedule, in the schedule's time zone
 * (the server's default when it names none). A tick records its due time first: the record
 * is unique per schedule and due time, so however many clocks see a time, one of them deals
 * with it. A tick of a cron schedule whose template still has a task that has not finished
 * is recorded as missed, with an event; otherwise it queues a task of its template. A commit
 * check (a schedule with a repository) first reads the head of the repository and queues a
 * task only when the commit differs from the one seen last time. At start, times a schedule
 * was due while the server was down are recorded as missed, with an event, and run once when
 * the schedule asks so. Errors of a tick are recorded and logged, never thrown.
 */
export class ScheduleClock {
  private readonly jobs = new Map<number, CronJob>()
  /** Schedules whose tick is under way. */
  private readonly busy = new Set<number>()
  private readonly ticks = new Set<Promise<unknown>>()
  private loading: Promise<void> = Promise.resolve()
  private running = false
  /** What the last start did with missed times, for tests and diagnostics. */
  private caughtUp: CatchUp[] = []

  private readonly timers: ClockTimers
  private readonly defaultTimezone: string
  /** Told how each recorded due time ended. */
  metrics?: ScheduleMetrics

  constructor(private readonly deps: ScheduleClockDeps) {
    this.timers = deps.timers ?? SYSTEM_TIMERS
    this.defaultTimezone = deps.defaultTimezone ?? 'UTC'
  }

  /** The clock's time in milliseconds since the epoch. */
  now(): number {
    return this.timers.now()
  }

  /**
   * Loads every active schedule and deals with the times they were due while the server was
   * down; before this, reloads do nothing.
   */
  async start(): Promise<void> {
    this.running = true
    await this.reload(true)
  }

  /**
   * Reads the schedules again and replaces the cron jobs. Called after every change made
   * through the API; reloads run one after another, so the last change always wins.
   */
  reload(catchUp = false): Promise<void> {
    this.loading = this.loading.then(async () => {
      if (!this.running) return
      try {
        const from = this.timers.now()
        const rows = await this.load(from)
        if (catchUp) this.caughtUp = await this.catchUp(rows, from)
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

  /** The times missed while the server was down, as the last start found them. */
  get lastCatchUp(): readonly CatchUp[] {
    return this.caughtUp
  }

  /** Waits for the ticks under way (and the load under way) to end. */
  async idle(): Promise<void> {
    await this.loading
    await Promise.allSettled([...this.ticks])
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
   * One tick of the schedule for the time `due` (ms; now when left out), as its cron job
   * runs it. Errors are recorded as a miss and thrown to the caller; the cron jobs log them.
   */
  async fire(id: number, due: number = this.timers.now()): Promise<TickOutcome> {
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
      if (this.deps.holdsPlace && !(await this.deps.holdsPlace())) return { outcome: 'fenced' }
      const dueIso = iso(due)
      const runId = await claimRun(db, {
        scheduleId: id,
        due: dueIso,
        fired: iso(this.timers.now()),
        outcome: 'pending',
      })
      if (runId === null) return { outcome: 'taken' }
      try {
        if (row.repository_id === null) {
          // A cron schedule does not pile tasks up behind one that has not finished.
          const blocking = await findActiveTask(db.kysely, row.template_id)
          if (blocking !== null) {
            await this.recordMiss(
              row.project_id,
              id,
              runId,
              'template_busy',
              `Schedule ID ${id} missed its run due at ${dueIso}: template ID ${row.template_id} was still busy with task ID ${blocking}`,
            )
            this.metrics?.scheduleRun('missed')
            return { outcome: 'missed', reason: 'template_busy', taskId: blocking }
          }
        }
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
          if (commit === row.last_commit_hash) {
            await finishRun(db.kysely, runId, { outcome: 'unchanged' })
            this.metrics?.scheduleRun('unchanged')
            return { outcome: 'unchanged', commit }
          }
          await db.kysely
            .updateTable('schedule')
            .set({ last_commit_hash: commit })
            .where('id', '=', id)
            .execute()
        }
        const taskId = await this.startTask(row.project_id, row.template_id, id)
        await finishRun(db.kysely, runId, { outcome: 'started', taskId })
        this.metrics?.scheduleRun('started')
        return { outcome: 'started', taskId, commit }
      } catch (error) {
        await this.recordFailure(row.project_id, id, runId, dueIso, error)
        throw error
      }
    } finally {
      this.busy.delete(id)
    }
  }

  private async startTask(projectId: number, templateId: number, id: number): Promise<number> {
    const task = await createTask(
      this.deps.db,
      this.deps.queue,
      null,
      projectId,
      { template_id: templateId },
      { scheduleId: id },
    )
    return task.id
  }

  /** Marks the record of a due time as missed and tells the project why, in one transaction. */
  private async recordMiss(
    projectId: number,
    scheduleId: number,
    runId: number,
    reason: MissReason,
    description: string,
  ): Promise<void> {
    await this.deps.db.kysely.transaction().execute(async (trx) => {
      await finishRun(trx, runId, { outcome: 'missed', reason })
      await insertEvent(trx, {
        projectId,
        userId: null,
        objectType: 'schedule',
        objectId: scheduleId,
        description,
      })
    })
  }

  private async recordFailure(
    projectId: number,
    scheduleId: number,
    runId: number,
    dueIso: string,
    error: unknown,
  ): Promise<void> {
    this.metrics?.scheduleRun('failed')
    // Only messages meant for people are shown to the project; the rest go to the log.
    const why = error instanceof AppError ? error.message : 'see the server log'
    try {
      await this.recordMiss(
        projectId,
        scheduleId,
        runId,
        'error',
        `Schedule ID ${scheduleId} missed its run due at ${dueIso}: the task could not be started (${why})`,
      )
    } catch (recordError) {
      this.deps.log.error({ err: recordError }, `Schedule ${scheduleId}: could not record a miss`)
    }
  }

  private async load(from: number): Promise<ClockRow[]> {
    const rows = await findActiveSchedules(this.deps.db.kysely)
    this.stopJobs()
    const loaded: ClockRow[] = []
    for (const row of rows) {
      let cron: Cron
      try {
        cron = cronFor(row.cron_format, row.timezone || this.defaultTimezone)
      } catch (error) {
        // Stored before validation existed, or restored from elsewhere: skipped, not fatal.
        this.deps.log.warn(
          { err: error },
          `Schedule ${row.id} has an invalid cron expression or time zone and does not run`,
        )
        continue
      }
      this.jobs.set(row.id, new CronJob(cron, this.timers, (due) => this.tick(row.id, due), from))
      // A schedule no clock has seen yet counts its times from now.
      if (row.evaluated_until === null)
        await startEvaluating(this.deps.db.kysely, row.id, iso(from))
      loaded.push(row)
    }
    return loaded
  }

  /**
   * Deals with the times each cron schedule was due between the last time a clock dealt
   * with it and `now` (the server was down): one record and one event per schedule, and one
   * run when its policy is `run_once`. Commit checks look again on their next tick anyway.
   */
  private async catchUp(rows: readonly ClockRow[], now: number): Promise<CatchUp[]> {
    const done: CatchUp[] = []
    for (const row of rows) {
      if (row.repository_id !== null || row.evaluated_until === null) continue
      try {
        const result = await this.catchUpOne(row, now)
        if (result) done.push(result)
      } catch (error) {
        this.deps.log.error({ err: error }, `Schedule ${row.id}: could not deal with missed runs`)
      }
    }
    return done
  }

  private async catchUpOne(row: ClockRow, now: number): Promise<CatchUp | null> {
    const cron = cronFor(row.cron_format, row.timezone || this.defaultTimezone)
    let count = 0
    let last: Date | null = null
    let next = cron.nextRun(new Date(row.evaluated_until ?? now))
    while (next !== null && next.getTime() <= now && count < MAX_MISSED_COUNT) {
      last = next
      count += 1
      next = cron.nextRun(next)
    }
    if (last === null) return null
    if (next !== null && next.getTime() <= now) {
      // Too many to count: the last one is found from the other end.
      last = cron.previousRuns(1, new Date(now + 1))[0] ?? last
    }
    const due = last.toISOString()
    const runOnce = row.missed_run_policy === 'run_once'
    const { db } = this.deps
    const schedule = await db.kysely
      .selectFrom('schedule')
      .select(['project_id', 'template_id'])
      .where('id', '=', row.id)
      .executeTakeFirst()
    if (!schedule) return null
    const many = count >= MAX_MISSED_COUNT ? `at least ${count} runs` : `${count} run(s)`
    const runId = await claimRun(
      db,
      {
        scheduleId: row.id,
        due,
        fired: iso(this.timers.now()),
        outcome: runOnce ? 'pending' : 'missed',
        reason: 'server_down',
        count,
      },
      (trx) =>
        insertEvent(trx, {
          projectId: schedule.project_id,
          userId: null,
          objectType: 'schedule',
          objectId: row.id,
          description: `Schedule ID ${row.id} missed ${many} while the server was down (last due at ${due}); ${runOnce ? 'running it once now' : 'skipped'}`,
        }),
    )
    if (runId === null) return null
    let taskId: number | null = null
    if (runOnce) {
      try {
        taskId = await this.startTask(schedule.project_id, schedule.template_id, row.id)
      } catch (error) {
        await finishRun(db.kysely, runId, { outcome: 'missed' })
        this.metrics?.scheduleRun('failed')
        throw error
      }
      await finishRun(db.kysely, runId, { outcome: 'started', taskId })
    }
    // One count per record: the times missed while the server was down are one record.
    this.metrics?.scheduleRun(runOnce ? 'started' : 'missed')
    return { scheduleId: row.id, count, due, taskId }
  }

  private tick(id: number, due: number): void {
    // While the server shuts down no task can be queued, so the tick has nothing to do. (A
    // draining instance still queues: another instance runs the task.)
    if (!this.running || !this.deps.queue.isOpen) return
    const done = this.fire(id, due)
      .then((result) => {
        if (result.outcome === 'started') {
          this.deps.log.info(`Schedule ${id} queued task ${result.taskId}`)
        } else if (result.outcome === 'fenced') {
          this.deps.log.warn(`Schedule ${id}: this instance was taken for dead; not firing late`)
        } else if (result.outcome === 'missed') {
          this.deps.log.warn(`Schedule ${id} missed a run: template busy`)
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
