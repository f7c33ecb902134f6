import { access, defineRoute } from '../http.js'
import { Health, OptionEntry, Options, SetOptionBody, SystemInfo } from './system.schemas.js'

/** Answers the plain text `pong`. */
export const ping = defineRoute({
  method: 'GET',
  path: '/api/ping',
  access: access.public,
  status: 200,
})

/**
 * The server's metrics in the Prometheus text format, for an administrator or a scraper
 * holding the token `FLAGMAN_METRICS_TOKEN`.
 */
export const getMetrics = defineRoute({
  method: 'GET',
  path: '/api/metrics',
  access: access.admin,
  status: 200,
})

/** The process answers (liveness). */
export const healthLive = defineRoute({
  method: 'GET',
  path: '/api/health/live',
  access: access.public,
  response: Health,
  status: 200,
})

/** The instance should be sent requests (readiness); 503 with the failing checks if not. */
export const healthReady = defineRoute({
  method: 'GET',
  path: '/api/health/ready',
  access: access.public,
  response: Health,
  status: 200,
})

export const getInfo = defineRoute({
  method: 'GET',
  path: '/api/info',
  access: access.auth,
  response: SystemInfo,
  status: 200,
})

/** Every stored server option (app settings included), as one flat object. */
export const getOptions = defineRoute({
  method: 'GET',
  path: '/api/options',
  access: access.admin,
  response: Options,
  status: 200,
})

/** Stores one option and answers it back. */
export const setOption = defineRoute({
  method: 'POST',
  path: '/api/options',
  access: access.admin,
  body: SetOptionBody,
  response: OptionEntry,
  status: 200,
})
