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

function toActor(row: UserFlags, credential: { sessionId: number } | { tokenId: number }): Actor {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    email: row.email,
    admin: Boolean(row.admin),
    external: Boolean(row.external),
    pro: Boolean(row.pro),
    sessionId: 'sessionId' in credential ? credential.sessionId : null,
    tokenId: 'tokenId' in credential ? credential.tokenId : null,
    via: 'sessionId' in credential ? 'cookie' : 'token',
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

/** The signed-in user of an unexpired API token, found by its hash or its row id. */
async function tokenActor(db: Db, token: { hash: string } | { id: number }): Promise<Actor | null> {
  const row = await db.kysely
    .selectFrom('api_token')
    .innerJoin('user', 'user.id', 'api_token.user_id')
    .select(USER_COLUMNS.map((c) => `user.${c}` as const))
    .select('api_token.id as token_id')
    .where((eb) =>
      'hash' in token
        ? eb('api_token.token_hash', '=', token.hash)
        : eb('api_token.id', '=', token.id),
    )
    .where('api_token.expired', '=', 0)
    .executeTakeFirst()
  return row ? toActor(row, { tokenId: row.token_id }) : null
}

/**
 * The signed-in user of a live session, found by its cookie's hash or its row id. A
 * session idle for too long is ended here; `touch` records that it was used.
 */
async function sessionActor(
  db: Db,
  session: { hash: string } | { id: number },
  touch: boolean,
): Promise<Actor | null> {
  const row = await db.kysely
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select(USER_COLUMNS.map((c) => `user.${c}` as const))
    .select(['session.id as session_id', 'session.last_active', 'session.expired'])
    .where((eb) =>
      'hash' in session
        ? eb('session.token_hash', '=', session.hash)
        : eb('session.id', '=', session.id),
    )
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
  if (touch && idle > TOUCH_INTERVAL_MS) {
    await db.kysely
      .updateTable('session')
      .set({ last_active: nowIso() })
      .where('id', '=', row.session_id)
      .execute()
  }
  return toActor(row, { sessionId: row.session_id })
}

/** Finds who is calling: a bearer API token first, else the session cookie. */
export async function resolveActor(db: Db, request: FastifyRequest): Promise<Actor | null> {
  const token = bearerToken(request)
  if (token) return tokenActor(db, { hash: sha256(token) })
  const cookie = request.cookies[SESSION_COOKIE]
  if (!cookie) return null
  return sessionActor(db, { hash: sha256(cookie) }, true)
}

/**
 * Reads again who `actor` is now, by the same session or token: null once that has ended
 * (signed out, expired, new password, user deleted). Does not count as using the session.
 */
export async function recheckActor(db: Db, actor: Actor): Promise<Actor | null> {
  if (actor.tokenId !== null) return tokenActor(db, { id: actor.tokenId })
  if (actor.sessionId !== null) return sessionActor(db, { id: actor.sessionId }, false)
  return null
}
