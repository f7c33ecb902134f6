import type {
  CreateScheduleBody,
  PreviewScheduleBody,
  Schedule,
  SchedulePreview,
  ScheduleRun,
  ScheduleWithTemplate,
  UpdateScheduleBody,
} from '@flagman/contract'
import { PREVIEW_RUN_COUNT } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import { cronError, isTimeZone, nextRunTimes } from '../../lib/cron.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertInProject, assertSameIds } from '../project-scope.js'
import { findHistories, findRuns, toSchedule } from './schedules.repository.js'

type CreateInput = z.output<typeof CreateScheduleBody>
type UpdateInput = z.output<typeof UpdateScheduleBody>
type PreviewInput = z.output<typeof PreviewScheduleBody>
type Trx = Kysely<Database>

async function findRow(db: Trx, projectId: number, id: number) {
  const row = await db
    .selectFrom('schedule')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Schedule')
  return row
}

/** Refuses an expression the schedule clock could not run, with the parser's reason. */
export function assertValidCron(expression: string): void {
  const problem = cronError(expression)
  if (problem) throw new BadRequestError(`Cron: ${problem}`)
}

/** Refuses a time zone the server does not know; empty stands for the server's default. */
export function assertValidTimezone(timezone: string | undefined): void {
  if (!timezone || isTimeZone(timezone)) return
  throw new BadRequestError(
    `timezone "${timezone}" is not a known time zone; use an IANA name such as Europe/Berlin`,
  )
}

/** The time zone a schedule is read in. */
export function effectiveTimezone(timezone: string, serverDefault: string): string {
  return timezone || serverDefault
}

/** The next times an expression names in a time zone, after `now` (ms). */
export function previewSchedule(
  input: PreviewInput,
  serverDefault: string,
  now: number,
): SchedulePreview {
  assertValidCron(input.cron_format)
  assertValidTimezone(input.timezone)
  const timezone = effectiveTimezone(input.timezone ?? '', serverDefault)
  const times = nextRunTimes(input.cron_format, timezone, PREVIEW_RUN_COUNT, new Date(now))
  return { timezone, next_runs: times.map((time) => time.toISOString()) }
}

async function withHistory(db: Trx, row: Parameters<typeof toSchedule>[0]): Promise<Schedule> {
  const histories = await findHistories(db, [row.id])
  return toSchedule(row, histories.get(row.id))
}

/** The template, and the repository of a commit check, must be the project's own. */
async function assertReferences(trx: Trx, projectId: number, input: CreateInput): Promise<void> {
  await assertInProject(trx, 'template', projectId, input.template_id, 'Template')
  if (input.repository_id) {
    await assertInProject(trx, 'repository', projectId, input.repository_id, 'Repository')
  }
}

/** Cron schedules of the project with their template's name; commit checks are not listed. */
export async function listSchedules(db: Db, projectId: number): Promise<ScheduleWithTemplate[]> {
  const rows = await db.kysely
    .selectFrom('schedule')
    .innerJoin('template', 'template.id', 'schedule.template_id')
    .selectAll('schedule')
    .select('template.name as tpl_name')
    .where('schedule.project_id', '=', projectId)
    .where('schedule.repository_id', 'is', null)
    .orderBy('schedule.id')
    .execute()
  const histories = await findHistories(
    db.kysely,
    rows.map((row) => row.id),
  )
  return rows.map((row) => ({
    ...toSchedule(row, histories.get(row.id)),
    tpl_name: row.tpl_name,
  }))
}

export async function getSchedule(db: Db, projectId: number, id: number): Promise<Schedule> {
  return withHistory(db.kysely, await findRow(db.kysely, projectId, id))
}

/** The latest due times of a schedule as the clock recorded them, newest first. */
export async function listScheduleRuns(
  db: Db,
  projectId: number,
  id: number,
): Promise<ScheduleRun[]> {
  await findRow(db.kysely, projectId, id)
  return findRuns(db.kysely, id)
}

export async function createSchedule(
  db: Db,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Schedule> {
  assertSameIds(input, { projectId }, 'Schedule')
  assertValidCron(input.cron_format)
  assertValidTimezone(input.timezone)
  return db.kysely.transaction().execute(async (trx) => {
    await assertReferences(trx, projectId, input)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'schedule', {
      project_id: projectId,
      template_id: input.template_id,
      repository_id: input.repository_id ?? null,
      name: input.name,
      cron_format: input.cron_format,
      active: flag(input.active),
      timezone: input.timezone ?? '',
      missed_run_policy: input.missed_run_policy ?? 'skip',
      created: nowIso(),
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'schedule',
      objectId: id,
      description: `Schedule ID ${id} created`,
    })
    return withHistory(trx, await findRow(trx, projectId, id))
  })
}

export async function updateSchedule(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  // The compatible API words these two refusals its own way for schedules.
  if (input.id !== id) throw new BadRequestError('schedule id in URL and in body must be the same')
  if (input.project_id !== undefined && input.project_id !== projectId) {
    throw new BadRequestError('You can not move schedule to other project')
  }
  assertValidCron(input.cron_format)
  assertValidTimezone(input.timezone)
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findRow(trx, projectId, id)
    await assertReferences(trx, projectId, input)
    const repositoryId = input.repository_id ?? null
    const timezone = input.timezone ?? current.timezone
    // Times named by the old timing, or while inactive, were not missed.
    const retimed =
      input.cron_format !== current.cron_format ||
      timezone !== current.timezone ||
      (input.active && !current.active)
    await trx
      .updateTable('schedule')
      .set({
        template_id: input.template_id,
        repository_id: repositoryId,
        name: input.name,
        cron_format: input.cron_format,
        active: flag(input.active),
        timezone,
        missed_run_policy: input.missed_run_policy ?? current.missed_run_policy,
        ...(retimed ? { evaluated_until: null } : {}),
        // A commit seen in another repository says nothing about this one.
        ...(repositoryId !== current.repository_id ? { last_commit_hash: null } : {}),
      })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'schedule',
      objectId: id,
      description: `Schedule ID ${id} updated`,
    })
  })
}

export async function setScheduleActive(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  active: boolean,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findRow(trx, projectId, id)
    await trx
      .updateTable('schedule')
      .set({
        active: flag(active),
        // Times due while it was inactive were not missed.
        ...(active && !current.active ? { evaluated_until: null } : {}),
      })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'schedule',
      objectId: id,
      description: `Schedule ID ${id} updated`,
    })
  })
}

export async function deleteSchedule(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await findRow(trx, projectId, id)
    await trx.deleteFrom('schedule').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'schedule',
      objectId: id,
      description: `Schedule ID ${id} deleted`,
    })
  })
}
