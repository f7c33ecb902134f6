import type { Db } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import type { Config } from './config.js'

/**
 * Builds the HTTP application without listening (see app.ts). The web framework is loaded
 * on first call, so that importing this package for its command-line helpers stays quick.
 */
export async function buildApp(config: Config, db: Db): Promise<FastifyInstance> {
  const app = await import('./app.js')
  return app.buildApp(config, db)
}
