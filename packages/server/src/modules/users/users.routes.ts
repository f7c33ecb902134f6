import {
  createToken,
  createUser,
  deleteUser,
  disableTotp,
  enableTotp,
  expireToken,
  getCurrentUser,
  getTotpQr,
  getUser,
  listTokens,
  listUsers,
  setUserPassword,
  updateUser,
} from '@flagman/contract'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Config } from '../../config.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, TooManyRequestsError } from '../../platform/errors.js'
import { mount } from '../../platform/router.js'
import { LoginThrottle } from '../auth/login-throttle.js'
import * as totp from '../auth/totp.service.js'
import { holdsInitialPassword, removeInitialPasswordFile } from './initial-password.js'
import * as tokens from './tokens.service.js'
import * as users from './users.service.js'

function rulesOf(config: Config): users.PasswordRules {
  return { minLength: config.passwordMinLength }
}

/** After the first administrator replaced the generated password: its file goes. */
function forgetInitialPassword(request: FastifyRequest, config: Config): void {
  const message = removeInitialPasswordFile(config.dataDir)
  if (message) request.log.info(message)
}

export function usersRoutes(app: FastifyInstance): void {
  // Guesses of the current password are slowed down like sign-in attempts, counted per
  // account whatever address they come from: whoever gets this far is already signed in.
  const passwordThrottle = new LoginThrottle({
    maxAttempts: app.config.loginMaxAttempts,
    maxAttemptsPerAddress: app.config.loginMaxAttemptsPerAddress,
    lockSeconds: app.config.loginLockSeconds,
  })
  if (app.hasDecorator('cluster')) app.cluster.shareThrottle('current-password', passwordThrottle)

  /**
   * Before users change their own password: refuses the change unless `current` is their
   * current password. Administrators resetting another user's password skip this.
   */
  async function proveCurrentPassword(
    request: FastifyRequest,
    actor: Actor,
    userId: number,
    current: string | undefined,
  ): Promise<void> {
    if (!users.needsCurrentPassword(actor, userId)) return
    const key = `user:${userId}`
    const wait = passwordThrottle.begin(key, key)
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Too many wrong passwords. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
        wait,
      )
    }
    let ok: boolean
    try {
      ok = await users.checkCurrentPassword(app.db, userId, current)
    } catch (error) {
      passwordThrottle.abandon(key, key)
      throw error
    }
    if (ok) {
      passwordThrottle.succeed(key, key)
      return
    }
    passwordThrottle.fail(key, key)
    request.log.info({ address: request.ip }, 'wrong current password')
    throw new BadRequestError(users.CURRENT_PASSWORD_WRONG)
  }

  mount(app, getCurrentUser, async ({ db, actor, config }) => {
    const user = await users.getUser(db, actor.id)
    return {
      ...user,
      totp: await totp.userTotp(db, config, actor.id),
      can_create_project: actor.admin || config.nonAdminCanCreateProject,
      has_active_subscription: false,
    }
  })
  mount(app, listTokens, async ({ db, actor }) => tokens.listTokens(db, actor.id))
  mount(app, createToken, async ({ db, actor, request }) =>
    tokens.createToken(db, actor.id, tokens.parseCreateTokenBody(request.body)),
  )
  mount(app, expireToken, async ({ db, actor, params }) =>
    tokens.expireToken(db, actor.id, params.token_id),
  )

  mount(app, listUsers, async ({ db, actor, config }) => {
    const list = await users.listUsers(db, actor)
    if (!actor.admin) return list
    // Administrators see who has a second factor, so they can remove it.
    const totps = await totp.userTotps(db, config)
    return list.map((user) => ({ ...user, totp: totps.get(user.id) }))
  })
  mount(app, createUser, async ({ db, actor, body, config }) =>
    users.createUser(db, actor, body, { minLength: config.passwordMinLength }),
  )
  mount(app, getUser, async ({ db, params, config }) => ({
    ...(await users.getUser(db, params.user_id)),
    totp: await totp.userTotp(db, config, params.user_id),
  }))
  mount(app, updateUser, async ({ db, actor, params, body, request, config }) => {
    if (!body.password) {
      return users.updateUser(db, actor, params.user_id, body, rulesOf(config))
    }
    await proveCurrentPassword(request, actor, params.user_id, body.current_password)
    const initial = await holdsInitialPassword(db, config.dataDir, params.user_id)
    await users.updateUser(db, actor, params.user_id, body, rulesOf(config))
    if (initial) forgetInitialPassword(request, config)
  })
  mount(app, deleteUser, async ({ db, actor, params }) =>
    users.deleteUser(db, actor, params.user_id),
  )
  mount(app, enableTotp, async ({ db, secrets, config, actor, params }) =>
    totp.enableTotp(db, secrets, config, actor, params.user_id),
  )
  mount(app, getTotpQr, async ({ db, secrets, config, params, reply }) => {
    const png = await totp.totpQrCode(db, secrets, config, params.user_id)
    reply.type('image/png').header('Cache-Control', 'no-store')
    return reply.send(png)
  })
  mount(app, disableTotp, async ({ db, actor, params }) =>
    totp.disableTotp(db, actor, params.user_id),
  )
  mount(app, setUserPassword, async ({ db, actor, params, body, request, config }) => {
    await proveCurrentPassword(request, actor, params.user_id, body.current_password)
    const initial = await holdsInitialPassword(db, config.dataDir, params.user_id)
    await users.setPassword(db, actor, params.user_id, body.password, rulesOf(config))
    if (initial) forgetInitialPassword(request, config)
  })
}
