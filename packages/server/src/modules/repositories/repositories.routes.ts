import { repositoryRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as repositories from './repositories.service.js'

export function repositoriesRoutes(app: FastifyInstance): void {
  const r = repositoryRoutes
  mount(app, r.list, async ({ db, project, query }) =>
    repositories.listRepositories(db, project.projectId, query),
  )
  mount(app, r.create, async ({ db, actor, project, body }) =>
    repositories.createRepository(db, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    repositories.getRepository(db, project.projectId, params.repository_id),
  )
  mount(app, r.update, async ({ db, actor, project, params, body }) =>
    repositories.updateRepository(db, actor, project.projectId, params.repository_id, body),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    repositories.deleteRepository(db, actor, project.projectId, params.repository_id),
  )
  mount(app, r.refs, async ({ db, project, params }) =>
    repositories.repositoryRefs(db, project.projectId, params.repository_id),
  )
}
