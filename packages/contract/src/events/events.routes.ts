import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { BeforeId, KeysetQuery, PageLimit } from '../common/keyset.js'
import { access, defineRoute } from '../http.js'
import { Event } from './events.schemas.js'

const ProjectParams = z.object({ project_id: PathId })

/*
 * Every events list pages by keyset (see common/keyset.ts): `limit` rows, older than
 * `before_id`. A paged answer gives each event its `id`, the cursor of the next page; an
 * answer asked for without them is the same as it always was. "all" lists stop at 1000
 * rows, "last" lists at the newest 200.
 */
const LastQuery = z.object({ before_id: BeforeId.optional(), limit: PageLimit(200).optional() })

export const listProjectEvents = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/events',
  access: access.project(),
  params: ProjectParams,
  query: KeysetQuery,
  response: z.array(Event),
  status: 200,
})

export const listLastProjectEvents = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/events/last',
  access: access.project(),
  params: ProjectParams,
  query: LastQuery,
  response: z.array(Event),
  status: 200,
})

export const listEvents = defineRoute({
  method: 'GET',
  path: '/api/events',
  access: access.auth,
  query: KeysetQuery,
  response: z.array(Event),
  status: 200,
})

export const listLastEvents = defineRoute({
  method: 'GET',
  path: '/api/events/last',
  access: access.auth,
  query: LastQuery,
  response: z.array(Event),
  status: 200,
})
