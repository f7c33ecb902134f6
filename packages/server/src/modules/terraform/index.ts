import type { FastifyInstance } from 'fastify'
import { terraformAliasRoutes } from './alias.routes.js'
import { terraformBackendProtocolRoutes } from './backend.routes.js'
import { terraformStateRoutes } from './state.routes.js'

/** The Terraform/OpenTofu state backend: workspace aliases, state versions, lock, protocol. */
export async function terraformBackendRoutes(app: FastifyInstance): Promise<void> {
  terraformAliasRoutes(app)
  terraformStateRoutes(app)
  await terraformBackendProtocolRoutes(app)
}
