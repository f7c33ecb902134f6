import { terraformRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as states from './state.service.js'

/** Stored state versions of a workspace, their diff and restore, and the state lock. */
export function terraformStateRoutes(app: FastifyInstance): void {
  const r = terraformRoutes
  mount(app, r.listStates, async ({ db, project, params, query }) =>
    states.listStates(db, project.projectId, params.inventory_id, query),
  )
  mount(app, r.latestState, async ({ db, project, params }) =>
    states.latestState(db, project.projectId, params.inventory_id),
  )
  mount(app, r.diffStates, async ({ db, project, params, query }) =>
    states.diffStates(db, project.projectId, params.inventory_id, query),
  )
  mount(app, r.getState, async ({ db, project, params }) =>
    states.getState(db, project.projectId, params.inventory_id, params.state_id),
  )
  mount(app, r.removeState, async ({ db, actor, project, params }) =>
    states.removeState(db, actor, project.projectId, params.inventory_id, params.state_id),
  )
  mount(app, r.restoreState, async ({ db, actor, project, params }) =>
    states.restoreState(db, actor, project.projectId, params.inventory_id, params.state_id),
  )
  mount(app, r.getLock, async ({ db, project, params }) =>
    states.getLock(db, project.projectId, params.inventory_id),
  )
  mount(app, r.forceUnlock, async ({ db, actor, project, params }) =>
    states.forceUnlock(db, actor, project.projectId, params.inventory_id),
  )
}
