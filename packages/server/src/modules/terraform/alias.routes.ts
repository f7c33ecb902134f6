import type { FastifyInstance } from 'fastify'

/** Aliases of a workspace: list, create, read, change key, delete. */
export function terraformAliasRoutes(_app: FastifyInstance): void {}
