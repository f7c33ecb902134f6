import {
  listEvents,
  listLastEvents,
  listLastProjectEvents,
  listProjectEvents,
  type KeysetQuery,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { findEventsForUser, findProjectEvents, type EventPage } from './events.repository.js'

/** Lists are capped: "all" stops at 1000, "last" at the newest 200. */
const ALL_LIMIT = 1000
const LAST_LIMIT = 200

/** The page a query asks for; asked for without paging, the answer is as it always was. */
function pageOf(query: KeysetQuery, cap: number): EventPage {
  return {
    limit: query.limit ?? cap,
    beforeId: query.before_id,
    withIds: query.limit !== undefined || query.before_id !== undefined,
  }
}

export function eventsRoutes(app: FastifyInstance): void {
  mount(app, listProjectEvents, async ({ db, project, query }) =>
    findProjectEvents(db, project.projectId, pageOf(query, ALL_LIMIT)),
  )
  mount(app, listLastProjectEvents, async ({ db, project, query }) =>
    findProjectEvents(db, project.projectId, pageOf(query, LAST_LIMIT)),
  )
  mount(app, listEvents, async ({ db, actor, query }) =>
    findEventsForUser(db, actor.id, pageOf(query, ALL_LIMIT)),
  )
  mount(app, listLastEvents, async ({ db, actor, query }) =>
    findEventsForUser(db, actor.id, pageOf(query, LAST_LIMIT)),
  )
}
