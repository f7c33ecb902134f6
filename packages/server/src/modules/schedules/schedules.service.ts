import type {
  CreateScheduleBody,
  Schedule,
  ScheduleWithTemplate,
  UpdateScheduleBody,
} from '@flagman/contract'
import type { Database, Db, ScheduleTable } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import { cronError } from '../../lib/cron.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertInProject, assertSameIds } from '../project-scope.js'

type CreateInput = z.output<typeof CreateScheduleBody>
type UpdateInput = z.output<typeof UpdateScheduleBody>
type Trx = Kysely<Database>

export function toSchedule(row: Selectable<ScheduleTable>): Schedule {
  return {
    id: row.id,
    project_id: row.project_id,
    template_id: row.template_id,
    cron_format: row.cron_format,
    name: row.name,
    active: Boolean(row.active),
    repository_id: row.repository_id,
  }
}

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
  return rows.map((row) => ({ ...toSchedule(row), tpl_name: row.tpl_name }))
}

export async function getSchedule(db: Db, projectId: number, id: number): Promise<Schedule> {
  return toSchedule(await findRow(db.kysely, projectId, id))
}

export async function createSchedule(
  db: Db,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Schedule> {
  assertSameIds(input, { projectId }, 'Schedule')
  assertValidCron(input.cron_format)
  return db.kysely.transaction().execute(async (trx) => {
    await assertReferences(trx, projectId, input)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'schedule', {
      project_id: projectId,
      template_id: input.template_id,
      repository_id: input.repository_id ?? null,
      name: input.name,
      cron_format: input.cron_format,
      active: flag(input.active),
      created: nowIso(),
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'schedule',
      objectId: id,
      description: `Schedule ID ${id} created`,
    })
    return toSchedule(await findRow(trx, projectId, id))
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
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findRow(trx, projectId, id)
    await assertReferences(trx, projectId, input)
    const repositoryId = input.repository_id ?? null
    await trx
      .updateTable('schedule')
      .set({
        template_id: input.template_id,
        repository_id: repositoryId,
        name: input.name,
        cron_format: input.cron_format,
        active: flag(input.active),
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
    await findRow(trx, projectId, id)
    await trx
      .updateTable('schedule')
      .set({ active: flag(active) })
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
