import { templateRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as inventory from './template-inventory.service.js'
import * as templates from './templates.service.js'

export function templatesRoutes(app: FastifyInstance): void {
  const r = templateRoutes
  mount(
    app,
    r.list,
    async ({ db, project, query }) => templates.listTemplates(db, project.projectId, query),
    { reuse: 'data' },
  )
  mount(
    app,
    r.listInView,
    async ({ db, project, params, query }) =>
      templates.listTemplates(db, project.projectId, query, params.view_id),
    { reuse: 'data' },
  )
  mount(app, r.create, async ({ db, actor, project, body }) =>
    templates.createTemplate(db, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    templates.getTemplate(db, project.projectId, params.template_id),
  )
  mount(app, r.update, async ({ db, actor, project, params, body }) =>
    templates.updateTemplate(db, actor, project.projectId, params.template_id, body),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    templates.deleteTemplate(db, actor, project.projectId, params.template_id),
  )
  mount(app, r.refs, async ({ db, project, params }) =>
    templates.templateRefs(db, project.projectId, params.template_id),
  )
  mount(app, r.schedules, async ({ db, project, params }) =>
    templates.templateSchedules(db, project.projectId, params.template_id),
  )
  mount(app, r.attachInventory, async ({ db, actor, project, params }) =>
    inventory.attachInventory(
      db,
      actor,
      project.projectId,
      params.template_id,
      params.inventory_id,
    ),
  )
  mount(app, r.detachInventory, async ({ db, actor, project, params }) =>
    inventory.detachInventory(
      db,
      actor,
      project.projectId,
      params.template_id,
      params.inventory_id,
    ),
  )
  mount(app, r.setDefaultInventory, async ({ db, actor, project, params }) =>
    inventory.setDefaultInventory(
      db,
      actor,
      project.projectId,
      params.template_id,
      params.inventory_id,
    ),
  )
}
