import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyRequest } from 'fastify'
import { sha256 } from '../lib/secrets.js'
import type { Actor } from './actor.js'

/** Name of the session cookie; kept from the compatible API so existing clients work. */
export const SESSION_COOKIE = 'semaphore'
/** A session unused for this long is over. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000
/** last_active is written at most this often, to keep reads from turning into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000

const USER_COLUMNS = ['id', 'username', 'name', 'email', 'admin', 'external', 'pro'] as const

interface UserFlags {
  id: number
  username: string
  name: string
  email: string
  admin: number
  external: number
  pro: number
}

function toActor(row: UserFlags, sessionId: number | null, via: Actor['via']): Actor {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    admin: Boolean(row.admin),
    external: Boolean(row.external),
    pro: Boolean(row.pro),
    sessionId,
    via,
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization
  if (!header) return null
  const match = /^bearer\s+(.+)$/i.exec(header.trim())
  return match?.[1] ? match[1].trim().toLowerCase() : null
}

/** Whether the request carries a bearer token (which then wins over a cookie). */
export function hasBearer(request: FastifyRequest): boolean {
  return bearerToken(request) !== null
}

/** Finds who is calling: a bearer API token first, else the session cookie. */
export async function resolveActor(db: Db, request: FastifyRequest): Promise<Actor | null> {
  const token = bearerToken(request)
  if (token) {
    const row = await db.kysely
      .selectFrom('api_token')
      .innerJoin('user', 'user.id', 'api_token.user_id')
      .select(USER_COLUMNS.map((c) => `user.${c}` as const))
      .where('api_token.token_hash', '=', sha256(token))
      .where('api_token.expired', '=', 0)
      .executeTakeFirst()
    return row ? toActor(row, null, 'token') : null
  }
  const cookie = request.cookies[SESSION_COOKIE]
  if (!cookie) return null
  const row = await db.kysely
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select(USER_COLUMNS.map((c) => `user.${c}` as const))
    .select(['session.id as session_id', 'session.last_active', 'session.expired'])
    .where('session.token_hash', '=', sha256(cookie))
    .executeTakeFirst()
  if (!row || row.expired) return null
  const idle = Date.now() - Date.parse(row.last_active)
  if (idle > SESSION_IDLE_MS) {
    await db.kysely
      .updateTable('session')
      .set({ expired: 1 })
      .where('id', '=', row.session_id)
      .execute()
    return null
  }
  if (idle > TOUCH_INTERVAL_MS) {
    await db.kysely
      .updateTable('session')
      .set({ last_active: nowIso() })
      .where('id', '=', row.session_id)
      .execute()
  }
  return toActor(row, row.session_id, 'cookie')
}
