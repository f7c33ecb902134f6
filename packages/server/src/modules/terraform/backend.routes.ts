import type { FastifyInstance } from 'fastify'

/** `/api/terraform/{alias}`: Terraform's and OpenTofu's http backend protocol. */
export async function terraformBackendProtocolRoutes(_app: FastifyInstance): Promise<void> {}
