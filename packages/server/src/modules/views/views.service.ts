import type { CreateViewBody, UpdateViewBody, View, ViewPositionsBody } from '@flagman/contract'
import type { Database, Db, ViewTable } from '@flagman/db'
import { insertReturningId } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertSameIds } from '../project-scope.js'

type CreateInput = z.output<typeof CreateViewBody>
type UpdateInput = z.output<typeof UpdateViewBody>
type Positions = z.output<typeof ViewPositionsBody>

function toView(row: Selectable<ViewTable>): View {
  return { id: row.id, project_id: row.project_id, title: row.title, position: row.position }
}

async function findRow(db: Kysely<Database>, projectId: number, id: number) {
  const row = await db
    .selectFrom('view')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('View')
  return row
}

export async function listViews(db: Db, projectId: number): Promise<View[]> {
  const rows = await db.kysely
    .selectFrom('view')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('position')
    .orderBy('id')
    .execute()
  return rows.map(toView)
}

export async function getView(db: Db, projectId: number, id: number): Promise<View> {
  return toView(await findRow(db.kysely, projectId, id))
}

export async function createView(db: Db, actor: Actor, projectId: number, input: CreateInput) {
  assertSameIds(input, { projectId }, 'View')
  return db.kysely.transaction().execute(async (trx) => {
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'view', {
      project_id: projectId,
      title: input.title,
      position: input.position,
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'view',
      objectId: id,
      description: `View ${input.title} created`,
    })
    return toView(await findRow(trx, projectId, id))
  })
}

export async function updateView(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  // The compatible API words this mismatch differently from the other resources.
  if (input.id !== id) throw new BadRequestError('View ID in URL and in body must be the same')
  assertSameIds(input, { projectId }, 'View')
  await db.kysely.transaction().execute(async (trx) => {
    await findRow(trx, projectId, id)
    await trx
      .updateTable('view')
      .set({ title: input.title, position: input.position })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'view',
      objectId: id,
      description: `View ${input.title} updated`,
    })
  })
}

/** Deleting a view moves its templates back to the "All" tab. */
export async function deleteView(db: Db, actor: Actor, projectId: number, id: number) {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await findRow(trx, projectId, id)
    await trx.updateTable('template').set({ view_id: null }).where('view_id', '=', id).execute()
    await trx.deleteFrom('view').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'view',
      objectId: id,
      description: `View ${row.title} deleted`,
    })
  })
}

/** Sets many positions at once; every id must be a view of the project. */
export async function setPositions(db: Db, projectId: number, positions: Positions): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    for (const [id, position] of Object.entries(positions)) {
      await findRow(trx, projectId, Number(id))
      await trx.updateTable('view').set({ position }).where('id', '=', Number(id)).execute()
    }
  })
}
