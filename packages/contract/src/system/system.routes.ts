import { access, defineRoute } from '../http.js'
import { SystemInfo } from './system.schemas.js'

/** Answers the plain text `pong`. */
export const ping = defineRoute({
  method: 'GET',
  path: '/api/ping',
  access: access.public,
  status: 200,
})

export const getInfo = defineRoute({
  method: 'GET',
  path: '/api/info',
  access: access.auth,
  response: SystemInfo,
  status: 200,
})
