import { terraformRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { publicBaseUrl } from '../../platform/public-url.js'
import { mount } from '../../platform/router.js'
import * as aliases from './alias.service.js'

/** Aliases of a workspace: list, create, read, change key, delete. */
export function terraformAliasRoutes(app: FastifyInstance): void {
  const r = terraformRoutes
  mount(app, r.listAliases, async ({ db, project, params }) =>
    aliases.listWorkspaceAliases(db, publicBaseUrl(app), project.projectId, params.inventory_id),
  )
  mount(app, r.createAlias, async ({ db, actor, project, params, body }) =>
    aliases.createWorkspaceAlias(
      db,
      publicBaseUrl(app),
      actor,
      project.projectId,
      params.inventory_id,
      body,
    ),
  )
  mount(app, r.getAlias, async ({ db, project, params }) =>
    aliases.getWorkspaceAlias(
      db,
      publicBaseUrl(app),
      project.projectId,
      params.inventory_id,
      params.alias_id,
    ),
  )
  mount(app, r.updateAlias, async ({ db, actor, project, params, body }) =>
    aliases.updateWorkspaceAlias(
      db,
      actor,
      project.projectId,
      params.inventory_id,
      params.alias_id,
      body,
    ),
  )
  mount(app, r.removeAlias, async ({ db, actor, project, params }) =>
    aliases.deleteWorkspaceAlias(
      db,
      actor,
      project.projectId,
      params.inventory_id,
      params.alias_id,
    ),
  )
}
