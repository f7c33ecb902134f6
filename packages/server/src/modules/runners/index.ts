import type { FastifyInstance } from 'fastify'
import { mountRunnerProtocol } from './protocol.routes.js'
import { runnersRoutes } from './runners.routes.js'

export { anyRunner } from './runners.repository.js'

/** The runner console (global and project runners) and the protocol runners speak. */
export function runnersModule(app: FastifyInstance): void {
  runnersRoutes(app)
  mountRunnerProtocol(app)
}
