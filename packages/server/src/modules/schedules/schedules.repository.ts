import type {
  MissReason,
  MissedRunPolicy,
  Schedule,
  ScheduleLastMiss,
  ScheduleLastRun,
  ScheduleRun,
  ScheduleRunOutcome,
} from '@flagman/contract'
import type { Database, Db, ScheduleRunTable, ScheduleTable } from '@flagman/db'
import { insertReturningId } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import { ACTIVE_STATUSES } from '../tasks/index.js'

type Trx = Kysely<Database>
type RunRow = Selectable<ScheduleRunTable>

/** Records kept per schedule; older ones are removed as new ones come. */
export const RUNS_KEPT = 100

export function toScheduleRun(row: RunRow): ScheduleRun {
  return {
    id: row.id,
    schedule_id: row.schedule_id,
    due: row.due,
    fired: row.fired,
    outcome: row.outcome as ScheduleRunOutcome,
    reason: row.reason as MissReason | null,
    count: Number(row.count),
    task_id: row.task_id,
  }
}

function toLastRun(row: RunRow): ScheduleLastRun {
  return { due: row.due, fired: row.fired, task_id: row.task_id }
}

function toLastMiss(row: RunRow): ScheduleLastMiss {
  return {
    due: row.due,
    reason: row.reason as MissReason,
    count: Number(row.count),
    task_id: row.task_id,
  }
}

export interface ScheduleHistory {
  lastRun: ScheduleLastRun | null
  lastMiss: ScheduleLastMiss | null
}

export function toSchedule(
  row: Selectable<ScheduleTable>,
  history: ScheduleHistory = { lastRun: null, lastMiss: null },
): Schedule {
  return {
    id: row.id,
    project_id: row.project_id,
    template_id: row.template_id,
    cron_format: row.cron_format,
    name: row.name,
    active: Boolean(row.active),
    repository_id: row.repository_id,
    timezone: row.timezone,
    missed_run_policy: row.missed_run_policy === 'run_once' ? 'run_once' : 'skip',
    last_run: history.lastRun,
    last_miss: history.lastMiss,
  }
}

/** The latest run and the latest miss of each schedule named. */
export async function findHistories(
  db: Trx,
  scheduleIds: readonly number[],
): Promise<Map<number, ScheduleHistory>> {
  const histories = new Map<number, ScheduleHistory>()
  if (scheduleIds.length === 0) return histories
  const latest = (kind: 'run' | 'miss') => {
    let query = db
      .selectFrom('schedule_run')
      .select((eb) => eb.fn.max('id').as('id'))
      .where('schedule_id', 'in', [...scheduleIds])
      .groupBy('schedule_id')
    query =
      kind === 'run'
        ? query.where('outcome', '=', 'started')
        : query.where('reason', 'is not', null).where('outcome', '!=', 'pending')
    return query.execute()
  }
  const runs = await latest('run')
  const misses = await latest('miss')
  const ids = [...runs, ...misses].map((r) => Number(r.id))
  if (ids.length === 0) return histories
  const rows = await db.selectFrom('schedule_run').selectAll().where('id', 'in', ids).execute()
  const runIds = new Set(runs.map((r) => Number(r.id)))
  const missIds = new Set(misses.map((r) => Number(r.id)))
  for (const row of rows) {
    const history = histories.get(row.schedule_id) ?? { lastRun: null, lastMiss: null }
    if (runIds.has(row.id)) history.lastRun = toLastRun(row)
    if (missIds.has(row.id)) history.lastMiss = toLastMiss(row)
    histories.set(row.schedule_id, history)
  }
  return histories
}

/** The newest records of a schedule, newest first. */
export async function findRuns(db: Trx, scheduleId: number): Promise<ScheduleRun[]> {
  const rows = await db
    .selectFrom('schedule_run')
    .selectAll()
    .where('schedule_id', '=', scheduleId)
    .orderBy('due', 'desc')
    .orderBy('id', 'desc')
    .limit(RUNS_KEPT)
    .execute()
  return rows.map(toScheduleRun)
}

/** An active schedule as the clock loads it. */
export interface ClockRow {
  id: number
  cron_format: string
  timezone: string
  missed_run_policy: MissedRunPolicy
  repository_id: number | null
  evaluated_until: string | null
}

export async function findActiveSchedules(db: Trx): Promise<ClockRow[]> {
  const rows = await db
    .selectFrom('schedule')
    .select([
      'id',
      'cron_format',
      'timezone',
      'missed_run_policy',
      'repository_id',
      'evaluated_until',
    ])
    .where('active', '=', 1)
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    ...row,
    missed_run_policy: row.missed_run_policy === 'run_once' ? 'run_once' : 'skip',
  }))
}

/** Marks the due times up to `until` as dealt with (never moves the mark back). */
export async function advanceEvaluated(db: Trx, scheduleId: number, until: string): Promise<void> {
  await db
    .updateTable('schedule')
    .set({ evaluated_until: until })
    .where('id', '=', scheduleId)
    .where((eb) => eb.or([eb('evaluated_until', 'is', null), eb('evaluated_until', '<', until)]))
    .execute()
}

/** Sets the mark of schedules no clock has seen yet (new, or with changed timing). */
export async function startEvaluating(db: Trx, scheduleId: number, from: string): Promise<void> {
  await db
    .updateTable('schedule')
    .set({ evaluated_until: from })
    .where('id', '=', scheduleId)
    .where('evaluated_until', 'is', null)
    .execute()
}

export interface NewRun {
  scheduleId: number
  due: string
  fired: string
  outcome: ScheduleRunOutcome
  reason?: MissReason | null
  count?: number
}

/**
 * Records a due time of a schedule and advances its mark, with the writes of `alongside`, in
 * one transaction, and removes its oldest records beyond RUNS_KEPT. Returns null when the due time is recorded already
 * (another clock has it), so a due time is dealt with once, whatever the number of clocks.
 */
export async function claimRun(
  db: Db,
  run: NewRun,
  alongside?: (trx: Trx) => Promise<void>,
): Promise<number | null> {
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      // Clocks claiming a time of the same schedule queue up on its row, so the later ones
      // meet the first one's record instead of a lock cycle (SQLite runs one write at a time).
      if (db.dialect !== 'sqlite') {
        await trx
          .selectFrom('schedule')
          .select('id')
          .where('id', '=', run.scheduleId)
          .forUpdate()
          .execute()
      }
      const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'schedule_run', {
        schedule_id: run.scheduleId,
        due: run.due,
        fired: run.fired,
        outcome: run.outcome,
        reason: run.reason ?? null,
        count: run.count ?? 1,
        task_id: null,
      })
      await advanceEvaluated(trx, run.scheduleId, run.due)
      if (alongside) await alongside(trx)
      const cutoff = await trx
        .selectFrom('schedule_run')
        .select('id')
        .where('schedule_id', '=', run.scheduleId)
        .orderBy('id', 'desc')
        .limit(1)
        .offset(RUNS_KEPT)
        .executeTakeFirst()
      if (cutoff) {
        await trx
          .deleteFrom('schedule_run')
          .where('schedule_id', '=', run.scheduleId)
          .where('id', '<=', cutoff.id)
          .execute()
      }
      return id
    })
  } catch (error) {
    // The unique (schedule_id, due) index refused the record: another clock was first.
    const existing = await db.kysely
      .selectFrom('schedule_run')
      .select('id')
      .where('schedule_id', '=', run.scheduleId)
      .where('due', '=', run.due)
      .executeTakeFirst()
    if (existing) return null
    throw error
  }
}

export async function finishRun(
  db: Trx,
  runId: number,
  fields: { outcome: ScheduleRunOutcome; reason?: MissReason | null; taskId?: number | null },
): Promise<void> {
  await db
    .updateTable('schedule_run')
    .set({
      outcome: fields.outcome,
      ...(fields.reason !== undefined ? { reason: fields.reason } : {}),
      ...(fields.taskId !== undefined ? { task_id: fields.taskId } : {}),
    })
    .where('id', '=', runId)
    .execute()
}

/** A task of the template that has not finished, if any. */
export async function findActiveTask(db: Trx, templateId: number): Promise<number | null> {
  const row = await db
    .selectFrom('task')
    .select('id')
    .where('template_id', '=', templateId)
    .where('status', 'in', [...ACTIVE_STATUSES])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst()
  return row ? row.id : null
}
