import { viewRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as views from './views.service.js'

export function viewsRoutes(app: FastifyInstance): void {
  const r = viewRoutes
  mount(app, r.list, async ({ db, project }) => views.listViews(db, project.projectId))
  mount(app, r.create, async ({ db, actor, project, body }) =>
    views.createView(db, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    views.getView(db, project.projectId, params.view_id),
  )
  mount(app, r.update, async ({ db, actor, project, params, body }) =>
    views.updateView(db, actor, project.projectId, params.view_id, body),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    views.deleteView(db, actor, project.projectId, params.view_id),
  )
  mount(app, r.positions, async ({ db, project, body }) =>
    views.setPositions(db, project.projectId, body),
  )
}
