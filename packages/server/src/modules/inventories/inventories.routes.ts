import { inventoryRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as inventories from './inventories.service.js'

export function inventoriesRoutes(app: FastifyInstance): void {
  const r = inventoryRoutes
  mount(app, r.list, async ({ db, project, query }) =>
    inventories.listInventories(db, project.projectId, query),
  )
  mount(app, r.create, async ({ db, actor, project, body }) =>
    inventories.createInventory(db, actor, project.projectId, body),
  )
  mount(app, r.get, async ({ db, project, params }) =>
    inventories.getInventory(db, project.projectId, params.inventory_id),
  )
  mount(app, r.update, async ({ db, actor, project, params, body }) =>
    inventories.updateInventory(db, actor, project.projectId, params.inventory_id, body),
  )
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    inventories.deleteInventory(db, actor, project.projectId, params.inventory_id),
  )
  mount(app, r.refs, async ({ db, project, params }) =>
    inventories.inventoryRefs(db, project.projectId, params.inventory_id),
  )
}
