import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { newSessionToken, sha256 } from '../../lib/secrets.js'
import { SESSION_COOKIE, SIGNED_IN_MARKER_COOKIE } from '../../platform/auth.js'

/** The marker's value: it only says that a session cookie was set. */
const MARKER_VALUE = '1'

/** HTTPS to the browser: a TLS connection, or X-Forwarded-Proto from a trusted proxy. */
export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https'
}

/**
 * Opens a session for the user and hands the browser its cookies. With a second factor
 * still to give, the session is `verified: false` until a code is checked.
 */
export async function openSession(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  verified: boolean,
): Promise<void> {
  const token = newSessionToken()
  const now = nowIso()
  await db.kysely
    .insertInto('session')
    .values({
      user_id: userId,
      token_hash: sha256(token),
      created: now,
      last_active: now,
      ip: request.ip.slice(0, 64),
      user_agent: String(request.headers['user-agent'] ?? '').slice(0, 255),
      verified: verified ? 1 : 0,
    })
    .execute()
  const secure = isHttps(request)
  reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure })
  reply.setCookie(SIGNED_IN_MARKER_COOKIE, MARKER_VALUE, {
    path: '/',
    httpOnly: false,
    sameSite: 'lax',
    secure,
  })
}
