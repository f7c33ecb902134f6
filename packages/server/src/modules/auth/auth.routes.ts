import { getLoginMetadata, login, logout, recoverTotp, verifyTotp } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { sha256 } from '../../lib/secrets.js'
import { announceAccessChange } from '../../platform/access-changes.js'
import { clearSessionCookies, cookieSession, SESSION_COOKIE } from '../../platform/auth.js'
import {
  BadRequestError,
  ForbiddenError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../platform/errors.js'
import { mount } from '../../platform/router.js'
import { checkCredentials } from './ldap.service.js'
import { LoginThrottle } from './login-throttle.js'
import { oidcRoutes } from './oidc.routes.js'
import { oidcProviderList } from './oidc.service.js'
import { openSession } from './session.js'
import { authMethods, checkPasscode, needsSecondFactor, recoverWithCode } from './totp.service.js'

/** One message for unknown user and wrong password, so logins cannot be probed. */
const BAD_CREDENTIALS = 'Incorrect login or password'

/** Answer to verify and recovery calls while the server has two-factor sign-in off. */
const TOTP_DISABLED = 'TOTP_DISABLED'

function tooMany(wait: number): TooManyRequestsError {
  return new TooManyRequestsError(
    `Too many failed sign-in attempts. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
    wait,
  )
}

export function authRoutes(app: FastifyInstance): void {
  const throttle = new LoginThrottle({
    maxAttempts: app.config.loginMaxAttempts,
    maxAttemptsPerAddress: app.config.loginMaxAttemptsPerAddress,
    lockSeconds: app.config.loginLockSeconds,
  })
  // Second-factor guesses are counted per user, whatever address they come from: whoever
  // gets this far already knows the password.
  const codeThrottle = new LoginThrottle({
    maxAttempts: app.config.loginMaxAttempts,
    maxAttemptsPerAddress: app.config.loginMaxAttemptsPerAddress,
    lockSeconds: app.config.loginLockSeconds,
  })
  const codeKey = (userId: number) => `user:${userId}`
  if (app.hasDecorator('cluster')) {
    app.cluster.shareThrottle('sign-in', throttle)
    app.cluster.shareThrottle('second-factor', codeThrottle)
  }

  /** Runs one second-factor check under the throttle; false when the code is wrong. */
  async function throttledCheck(userId: number, check: () => Promise<boolean>): Promise<boolean> {
    const key = codeKey(userId)
    const wait = codeThrottle.begin(key, key)
    if (wait > 0) throw tooMany(wait)
    let ok: boolean
    try {
      ok = await check()
    } catch (error) {
      codeThrottle.abandon(key, key)
      throw error
    }
    if (ok) codeThrottle.succeed(key, key)
    else codeThrottle.fail(key, key)
    return ok
  }

  mount(app, getLoginMetadata, async ({ config }) => ({
    oidc_providers: oidcProviderList(config),
    // Directory accounts sign in with the same login and password form.
    login_with_password: !config.passwordLoginDisabled || config.ldap !== null,
    auth_methods: authMethods(config),
  }))

  mount(app, login, async ({ db, body, request, reply, config }) => {
    if (config.passwordLoginDisabled && !config.ldap) {
      throw new BadRequestError('Password sign-in is disabled')
    }
    const address = request.ip
    const account = body.auth
    const wait = throttle.begin(address, account)
    if (wait > 0) throw tooMany(wait)
    let check: Awaited<ReturnType<typeof checkCredentials>>
    try {
      // LDAP first when it is on, then the local password.
      check = await checkCredentials(db, config, body.auth, body.password, request.log)
    } catch (error) {
      throttle.abandon(address, account)
      throw error
    }
    const { user } = check
    const ok = user !== undefined
    if (ok) throttle.succeed(address, account)
    else throttle.fail(address, account)
    if (!user || !ok) {
      request.log.info({ address }, 'failed sign-in')
      if (check.unavailable) throw check.unavailable
      throw new UnauthorizedError(BAD_CREDENTIALS)
    }
    // With a second factor the session is only verified once a code has been given.
    const verified = !(await needsSecondFactor(db, config, user.id))
    await openSession(db, request, reply, user.id, verified)
  })

  mount(app, verifyTotp, async ({ db, body, request, reply, config, secrets }) => {
    if (!config.totpEnabled) throw new ForbiddenError(TOTP_DISABLED)
    const session = await cookieSession(db, request)
    if (!session) throw new UnauthorizedError()
    if (session.verified) return reply.status(204).send()
    const { actor } = session
    const ok = await throttledCheck(actor.id, () =>
      checkPasscode(db, secrets, actor.id, body.passcode),
    )
    if (!ok) {
      request.log.info({ address: request.ip }, 'wrong second-factor code')
      throw new BadRequestError('Incorrect code')
    }
    await db.kysely
      .updateTable('session')
      .set({ verified: 1 })
      .where('id', '=', actor.sessionId as number)
      .execute()
  })

  mount(app, recoverTotp, async ({ db, body, request, config }) => {
    if (!config.totpEnabled || !config.totpAllowRecovery) throw new ForbiddenError(TOTP_DISABLED)
    const session = await cookieSession(db, request)
    if (!session) throw new UnauthorizedError()
    const { actor } = session
    const ok = await throttledCheck(actor.id, () =>
      recoverWithCode(db, actor, actor.sessionId as number, body.recovery_code),
    )
    if (!ok) {
      request.log.info({ address: request.ip }, 'wrong recovery code')
      throw new BadRequestError('Incorrect recovery code')
    }
  })

  mount(app, logout, async ({ db, request, reply }) => {
    const token = request.cookies[SESSION_COOKIE]
    if (token) {
      const session = await db.kysely
        .selectFrom('session')
        .select('id')
        .where('token_hash', '=', sha256(token))
        .executeTakeFirst()
      if (session) {
        await db.kysely
          .updateTable('session')
          .set({ expired: 1 })
          .where('id', '=', session.id)
          .execute()
        // Live sockets of this session close before the answer leaves.
        announceAccessChange(db, { kind: 'session-ended', sessionId: session.id })
      }
    }
    clearSessionCookies(reply)
  })

  oidcRoutes(app)
}
