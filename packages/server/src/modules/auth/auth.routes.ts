import { getLoginMetadata, login, logout } from '@flagman/contract'
import { nowIso } from '@flagman/db'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { newSessionToken, sha256, verifyPassword } from '../../lib/secrets.js'
import { announceAccessChange } from '../../platform/access-changes.js'
import { SESSION_COOKIE } from '../../platform/auth.js'
import { BadRequestError, TooManyRequestsError, UnauthorizedError } from '../../platform/errors.js'
import { mount } from '../../platform/router.js'
import { findUserByLogin } from '../users/index.js'
import { LoginThrottle } from './login-throttle.js'

/** One message for unknown user and wrong password, so logins cannot be probed. */
const BAD_CREDENTIALS = 'Incorrect login or password'

/** HTTPS to the browser: a TLS connection, or X-Forwarded-Proto from a trusted proxy. */
function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https'
}

export function authRoutes(app: FastifyInstance): void {
  const throttle = new LoginThrottle({
    maxAttempts: app.config.loginMaxAttempts,
    maxAttemptsPerAddress: app.config.loginMaxAttemptsPerAddress,
    lockSeconds: app.config.loginLockSeconds,
  })

  mount(app, getLoginMetadata, async ({ config }) => ({
    oidc_providers: [],
    login_with_password: !config.passwordLoginDisabled,
    auth_methods: {},
  }))

  mount(app, login, async ({ db, body, request, reply, config }) => {
    if (config.passwordLoginDisabled) throw new BadRequestError('Password sign-in is disabled')
    const address = request.ip
    const account = body.auth
    const wait = throttle.begin(address, account)
    if (wait > 0) {
      throw new TooManyRequestsError(
        `Too many failed sign-in attempts. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
        wait,
      )
    }
    let user: Awaited<ReturnType<typeof findUserByLogin>>
    let ok: boolean
    try {
      user = await findUserByLogin(db, body.auth)
      ok = await verifyPassword(body.password, user && !user.external ? user.password : null)
    } catch (error) {
      throttle.abandon(address, account)
      throw error
    }
    if (ok) throttle.succeed(address, account)
    else throttle.fail(address, account)
    if (!user || !ok) {
      request.log.info({ address }, 'failed sign-in')
      throw new UnauthorizedError(BAD_CREDENTIALS)
    }
    const token = newSessionToken()
    const now = nowIso()
    await db.kysely
      .insertInto('session')
      .values({
        user_id: user.id,
        token_hash: sha256(token),
        created: now,
        last_active: now,
        ip: address.slice(0, 64),
        user_agent: String(request.headers['user-agent'] ?? '').slice(0, 255),
        verified: 1,
      })
      .execute()
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: isHttps(request),
    })
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
    reply.clearCookie(SESSION_COOKIE, { path: '/' })
  })
}
