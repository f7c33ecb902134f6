import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyInstance } from 'fastify'

/** Header that carries a request's id in both directions. */
export const REQUEST_ID_HEADER = 'x-request-id'

/** An id a proxy or client sent is kept when it is short and plain; otherwise one is made. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * The id of a request: the caller's `X-Request-Id` when it looks like one (so a proxy's id
 * follows the request through), else a new UUID. Every log line of the request carries it
 * as `reqId`, and the answer returns it in `X-Request-Id`.
 */
export function requestId(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER]
  return typeof sent === 'string' && ACCEPTED_ID.test(sent) ? sent : randomUUID()
}

/**
 * One structured line per answered request (at `info`): method, the route's pattern (never
 * the address itself, whose query may carry a token), status and duration, with the
 * request's id like every other line logged while it was handled.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id)
  })
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request',
    )
  })
}
