import {
  createToken,
  createUser,
  deleteUser,
  expireToken,
  getCurrentUser,
  getUser,
  listTokens,
  listUsers,
  setUserPassword,
  updateUser,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as tokens from './tokens.service.js'
import * as users from './users.service.js'

export function usersRoutes(app: FastifyInstance): void {
  mount(app, getCurrentUser, async ({ db, actor, config }) => {
    const user = await users.getUser(db, actor.id)
    return {
      ...user,
      can_create_project: actor.admin || config.nonAdminCanCreateProject,
      has_active_subscription: false,
    }
  })
  mount(app, listTokens, async ({ db, actor }) => tokens.listTokens(db, actor.id))
  mount(app, createToken, async ({ db, actor }) => tokens.createToken(db, actor.id))
  mount(app, expireToken, async ({ db, actor, params }) =>
    tokens.expireToken(db, actor.id, params.token_id),
  )

  mount(app, listUsers, async ({ db, actor }) => users.listUsers(db, actor))
  mount(app, createUser, async ({ db, actor, body }) => users.createUser(db, actor, body))
  mount(app, getUser, async ({ db, params }) => users.getUser(db, params.user_id))
  mount(app, updateUser, async ({ db, actor, params, body }) =>
    users.updateUser(db, actor, params.user_id, body),
  )
  mount(app, deleteUser, async ({ db, actor, params }) =>
    users.deleteUser(db, actor, params.user_id),
  )
  mount(app, setUserPassword, async ({ db, actor, params, body }) =>
    users.setPassword(db, actor, params.user_id, body.password),
  )
}
