import { environmentRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as environments from './environments.service.js'

export function environmentsRoutes(app: FastifyInstance): void {
  const r = environmentRoutes
  mount(app, r.list, async ({ db, project, query }) =>
    environments.listEnvironments(db, project.projectId, query),
  )
  mount(app, r.create, async ({ db, secrets, actor, project, body }) =>
    environments.createEnvironment(db, secrets, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    environments.getEnvironment(db, project.projectId, params.environment_id),
  )
  mount(app, r.update, async ({ db, secrets, actor, project, params, body }) =>
    environments.updateEnvironment(
      db,
      secrets,
      actor,
      project.projectId,
      params.environment_id,
      body,
    ),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    environments.deleteEnvironment(db, actor, project.projectId, params.environment_id),
  )
  mount(app, r.refs, async ({ db, project, params }) =>
    environments.environmentRefs(db, project.projectId, params.environment_id),
  )
}
