import {
  listEvents,
  listLastEvents,
  listLastProjectEvents,
  listProjectEvents,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { findEventsForUser, findProjectEvents } from './events.repository.js'

/** Lists are capped: "all" stops at 1000, "last" at the newest 200. */
const ALL_LIMIT = 1000
const LAST_LIMIT = 200

export function eventsRoutes(app: FastifyInstance): void {
  mount(app, listProjectEvents, async ({ db, project }) =>
    findProjectEvents(db, project.projectId, ALL_LIMIT),
  )
  mount(app, listLastProjectEvents, async ({ db, project }) =>
    findProjectEvents(db, project.projectId, LAST_LIMIT),
  )
  mount(app, listEvents, async ({ db, actor }) => findEventsForUser(db, actor.id, ALL_LIMIT))
  mount(app, listLastEvents, async ({ db, actor }) => findEventsForUser(db, actor.id, LAST_LIMIT))
}
