import { keyRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as keys from './keys.service.js'

export function keysRoutes(app: FastifyInstance): void {
  mount(app, keyRoutes.list, async ({ db, project, query }) =>
    keys.listKeys(db, project.projectId, query),
  )
  mount(app, keyRoutes.create, async ({ db, secrets, actor, project, body }) =>
    keys.createKey(db, secrets, actor, project.projectId, body),
  )
  mount(app, keyRoutes.get, async ({ db, project, params }) =>
    keys.getKey(db, project.projectId, params.key_id),
  )
  mount(app, keyRoutes.update, async ({ db, secrets, actor, project, params, body }) =>
    keys.updateKey(db, secrets, actor, project.projectId, params.key_id, body),
  )
  mount(app, keyRoutes.remove, async ({ db, actor, project, params }) =>
    keys.deleteKey(db, actor, project.projectId, params.key_id),
  )
  mount(app, keyRoutes.refs, async ({ db, project, params }) =>
    keys.keyRefs(db, project.projectId, params.key_id),
  )
}
