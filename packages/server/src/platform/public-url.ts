import type { FastifyInstance } from 'fastify'

/**
 * The address people and programs reach this server at: `FLAGMAN_WEB_HOST`, else the local
 * address with the port the server really listens on (which differs from the configured
 * one when that is 0).
 */
export function publicBaseUrl(app: FastifyInstance): string {
  if (app.config.webHost !== '') return app.config.webHost
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : app.config.port
  return `http://localhost:${String(port)}`
}
