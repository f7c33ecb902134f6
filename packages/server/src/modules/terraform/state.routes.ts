import { terraformRoutes } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import { AppError, NotFoundError } from '../../platform/errors.js'
import { mount } from '../../platform/router.js'
import { assertInProject } from '../project-scope.js'

/**
 * Aliases and states of the Terraform/OpenTofu HTTP backend. This edition has no HTTP backend
 * (`premium_features.terraform_backend` is false), so it answers as the compatible community
 * server does: empty lists, and nothing to find, create or delete.
 */
export function terraformStateRoutes(app: FastifyInstance): void {
  const r = terraformRoutes
  type Ctx = { db: Db; project: { projectId: number }; params: { inventory_id: number } }
  const workspace = ({ db, project, params }: Ctx) =>
    assertInProject(db.kysely, 'inventory', project.projectId, params.inventory_id, 'Inventory')

  mount(app, r.listStates, async (ctx) => {
    await workspace(ctx)
    return []
  })
  mount(app, r.latestState, async (ctx) => {
    await workspace(ctx)
    throw new AppError(404, 'No state found')
  })
  for (const route of [r.getState, r.removeState]) {
    mount(app, route, async (ctx) => {
      await workspace(ctx)
      throw new NotFoundError('State')
    })
  }
}
