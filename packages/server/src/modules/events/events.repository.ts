import type { Event, EventObjectType } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { Kysely } from 'kysely'

export interface NewEvent {
  projectId: number | null
  userId: number | null
  objectType: EventObjectType
  objectId: number | null
  description: string
  objectName?: string
  integrationId?: number | null
}

/** Records one activity event; pass the transaction the change is made in. */
export async function insertEvent(db: Kysely<Database>, event: NewEvent): Promise<void> {
  await db
    .insertInto('event')
    .values({
      project_id: event.projectId,
      user_id: event.userId,
      integration_id: event.integrationId ?? null,
      object_id: event.objectId,
      object_type: event.objectType,
      object_name: event.objectName ?? '',
      description: event.description,
      created: nowIso(),
    })
    .execute()
}

function eventQuery(db: Db) {
  return db.kysely
    .selectFrom('event')
    .leftJoin('project', 'project.id', 'event.project_id')
    .leftJoin('user', 'user.id', 'event.user_id')
    .select([
      'event.id',
      'event.user_id',
      'event.project_id',
      'event.integration_id',
      'event.object_id',
      'event.object_type',
      'event.object_name',
      'event.description',
      'event.created',
      'project.name as project_name',
      'user.username as username',
    ])
    .orderBy('event.id', 'desc')
}

type EventRow = Awaited<ReturnType<ReturnType<typeof eventQuery>['execute']>>[number]

function toEvent(row: EventRow): Event {
  return {
    user_id: row.user_id,
    project_id: row.project_id,
    integration_id: row.integration_id,
    object_id: row.object_id,
    object_type: row.object_type,
    description: row.description,
    created: row.created,
    object_name: row.object_name,
    project_name: row.project_name ?? null,
    username: row.username ?? null,
  }
}

/** The project's events, newest first; `limit` caps the list. */
export async function findProjectEvents(
  db: Db,
  projectId: number,
  limit: number,
): Promise<Event[]> {
  const rows = await eventQuery(db).where('event.project_id', '=', projectId).limit(limit).execute()
  return rows.map(toEvent)
}

/** Events of the projects a user belongs to, plus events that belong to no project. */
export async function findEventsForUser(db: Db, userId: number, limit: number): Promise<Event[]> {
  const rows = await eventQuery(db)
    .where((eb) =>
      eb.or([
        eb('event.project_id', 'is', null),
        eb(
          'event.project_id',
          'in',
          eb
            .selectFrom('project_user')
            .select('project_user.project_id')
            .where('project_user.user_id', '=', userId),
        ),
      ]),
    )
    .limit(limit)
    .execute()
  return rows.map(toEvent)
}
