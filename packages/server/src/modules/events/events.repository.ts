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

/** Which events a list shows: the newest `limit`, older than `beforeId` when given. */
export interface EventPage {
  limit: number
  beforeId?: number
  /** Whether each event carries its id, the cursor of the next page. */
  withIds: boolean
}

function toEvent(row: EventRow, withId: boolean): Event {
  return {
    ...(withId ? { id: row.id } : {}),
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

function pageOf(db: Db, page: EventPage) {
  const query = eventQuery(db).limit(page.limit)
  return page.beforeId === undefined ? query : query.where('event.id', '<', page.beforeId)
}

/** The project's events, newest first: a range scan of event(project_id, id). */
export async function findProjectEvents(
  db: Db,
  projectId: number,
  page: EventPage,
): Promise<Event[]> {
  const rows = await pageOf(db, page).where('event.project_id', '=', projectId).execute()
  return rows.map((row) => toEvent(row, page.withIds))
}

/**
 * Events of the projects a user belongs to, plus events that belong to no project.
 *
 * Read newest first along the primary key, keeping the user's, when they are many: that
 * finds a page after reading a few times its length. For a user of few projects among many
 * it would read most of the table, so then each of their projects (and "no project") is read
 * as its own range of event(project_id, id) and the pages merged. With events spread evenly,
 * the first costs about limit × projects / k rows for k projects of the user, the second
 * limit × (k + 1).
 */
export async function findEventsForUser(db: Db, userId: number, page: EventPage): Promise<Event[]> {
  const memberships = await db.kysely
    .selectFrom('project_user')
    .select('project_id')
    .where('user_id', '=', userId)
    .execute()
  const projectIds = memberships.map((m) => m.project_id)
  const { projects } = await db.kysely
    .selectFrom('project')
    .select((eb) => eb.fn.countAll<number | string>().as('projects'))
    .executeTakeFirstOrThrow()
  const k = projectIds.length
  const rows =
    k * (k + 1) < Number(projects)
      ? await mergedPages(db, projectIds, page)
      : await pageOf(db, page)
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
          .execute()
  return rows.map((row) => toEvent(row, page.withIds))
}

async function mergedPages(db: Db, projectIds: number[], page: EventPage): Promise<EventRow[]> {
  const pages = await Promise.all([
    pageOf(db, page).where('event.project_id', 'is', null).execute(),
    ...projectIds.map((id) => pageOf(db, page).where('event.project_id', '=', id).execute()),
  ])
  return pages
    .flat()
    .sort((a, b) => b.id - a.id)
    .slice(0, page.limit)
}
