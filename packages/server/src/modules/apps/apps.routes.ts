import { appRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as apps from './apps.service.js'

export function appsRoutes(app: FastifyInstance): void {
  mount(app, appRoutes.list, async ({ db }) => apps.listApps(db))
  mount(app, appRoutes.get, async ({ db, params }) => apps.getApp(db, params.app_id))
  mount(app, appRoutes.save, async ({ db, params, body }) => apps.saveApp(db, params.app_id, body))
  mount(app, appRoutes.saveByPost, async ({ db, params, body }) =>
    apps.saveApp(db, params.app_id, body),
  )
  mount(app, appRoutes.setActive, async ({ db, params, body }) =>
    apps.setAppActive(db, params.app_id, body.active),
  )
  mount(app, appRoutes.remove, async ({ db, params }) => apps.deleteApp(db, params.app_id))
}
