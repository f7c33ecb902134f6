import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { Event } from './events.schemas.js'

const ProjectParams = z.object({ project_id: PathId })

export const listProjectEvents = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/events',
  access: access.project(),
  params: ProjectParams,
  response: z.array(Event),
  status: 200,
})

export const listLastProjectEvents = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/events/last',
  access: access.project(),
  params: ProjectParams,
  response: z.array(Event),
  status: 200,
})

export const listEvents = defineRoute({
  method: 'GET',
  path: '/api/events',
  access: access.auth,
  response: z.array(Event),
  status: 200,
})

export const listLastEvents = defineRoute({
  method: 'GET',
  path: '/api/events/last',
  access: access.auth,
  response: z.array(Event),
  status: 200,
})
