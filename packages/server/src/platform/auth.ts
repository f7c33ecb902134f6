import { ROUTES } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { sha256 } from '../lib/secrets.js'
import type { ExpressionBuilder, Kysely } from 'kysely'
import type { Actor, ProjectMembership } from './actor.js'
import { compiledOnce } from './compiled-query.js'
import { UnauthorizedError } from './errors.js'

/** Name of the session cookie; kept from the compatible API so existing clients work. */
export const SESSION_COOKIE = 'semaphore'
/**
 * A cookie scripts may read, set and cleared together with the session cookie. Its value is
 * a marker, never a credential: the session itself stays in the HttpOnly `semaphore` cookie.
 * The compatible web console decides whether it is signed in by looking for `semaphore=` in
 * `document.cookie`, which an HttpOnly cookie never shows; this name ends so that the check
 * finds it.
 */
export const SIGNED_IN_MARKER_COOKIE = 'signed_in_semaphore'

/** Tells the browser to forget the session cookie and its marker. */
export function clearSessionCookies(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' })
  reply.clearCookie(SIGNED_IN_MARKER_COOKIE, { path: '/' })
}
/** A session unused for this long is over. */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000
/** last_active is written at most this often, to keep reads from turning into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000

/** The error of a session that still needs its second factor; the console looks for it. */
export const TOTP_REQUIRED = 'TOTP_REQUIRED'

/**
 * Routes anyone may call (`METHOD path`): a session still waiting for its second factor
 * reaches them as if signed out, so it can sign out, sign in again or verify. Every other
 * route refuses it with TOTP_REQUIRED.
 */
const PUBLIC_ROUTES = new Set(
  ROUTES.filter((r) => r.access.kind === 'public').map((r) => `${r.method} ${r.path}`),
)

function isPublicRoute(request: FastifyRequest): boolean {
  const method = request.method === 'HEAD' ? 'GET' : request.method
  return PUBLIC_ROUTES.has(`${method} ${request.routeOptions.url ?? ''}`)
}

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

/** Who is calling and, when asked for, their standing in the route's project. */
export interface Caller {
  actor: Actor | null
  /** Present when resolveCaller was given a project id and the caller is signed in. */
  membership?: ProjectMembership
}

const NOBODY: Caller = { actor: null }

/**
 * The project's membership columns, read as scalar subqueries beside the caller's own row, so
 * that resolving the caller of a project route and checking their access take one statement.
 */
function membershipColumns(projectId: unknown) {
  return (eb: ExpressionBuilder<Database, 'user'>) => [
    eb
      .selectFrom('project')
      .select('project.id')
      .where('project.id', '=', projectId as number)
      .as('project_id'),
    eb
      .selectFrom('project_user')
      .select('project_user.role')
      .where('project_user.project_id', '=', projectId as number)
      .whereRef('project_user.user_id', '=', 'user.id')
      .as('project_role'),
  ]
}

function toMembership(
  row: { project_id?: number | null; project_role?: string | null },
  projectId: number | undefined,
): ProjectMembership | undefined {
  if (projectId === undefined) return undefined
  return { projectId, exists: row.project_id != null, role: row.project_role ?? null }
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

/** The user of an unexpired API token, by its hash or id; with `projectId`, their membership. */
function tokenQuery(
  kysely: Kysely<Database>,
  by: 'hash' | 'id',
  key: unknown,
  now: unknown,
  projectId?: unknown,
) {
  return kysely
    .selectFrom('api_token')
    .innerJoin('user', 'user.id', 'api_token.user_id')
    .select(USER_COLUMNS.map((c) => `user.${c}` as const))
    .select(['api_token.id as token_id', 'api_token.last_used'])
    .$if(projectId !== undefined, (q) => q.select(membershipColumns(projectId)))
    .where(by === 'hash' ? 'api_token.token_hash' : 'api_token.id', '=', key as never)
    .where('api_token.expired', '=', 0)
    .where((eb) =>
      eb.or([
        eb('api_token.expires_at', 'is', null),
        eb('api_token.expires_at', '>', now as never),
      ]),
    )
}

/** A session and its user, by its hash or id; with `projectId`, the user's membership. */
function sessionQuery(
  kysely: Kysely<Database>,
  by: 'hash' | 'id',
  key: unknown,
  projectId?: unknown,
) {
  return kysely
    .selectFrom('session')
    .innerJoin('user', 'user.id', 'session.user_id')
    .select(USER_COLUMNS.map((c) => `user.${c}` as const))
    .select([
      'session.id as session_id',
      'session.last_active',
      'session.expired',
      'session.verified',
    ])
    .$if(projectId !== undefined, (q) => q.select(membershipColumns(projectId)))
    .where(by === 'hash' ? 'session.token_hash' : 'session.id', '=', key as never)
}

// The statements behind every request, compiled once (see compiledOnce).
const TOKEN_BY_HASH = compiledOnce(['key', 'now'], (kysely, p) =>
  tokenQuery(kysely, 'hash', p.key, p.now),
)
const TOKEN_BY_HASH_IN_PROJECT = compiledOnce(['key', 'now', 'projectId'], (kysely, p) =>
  tokenQuery(kysely, 'hash', p.key, p.now, p.projectId),
)
const SESSION_BY_HASH = compiledOnce(['key'], (kysely, p) => sessionQuery(kysely, 'hash', p.key))
const SESSION_BY_HASH_IN_PROJECT = compiledOnce(['key', 'projectId'], (kysely, p) =>
  sessionQuery(kysely, 'hash', p.key, p.projectId),
)

/**
 * The signed-in user of an unexpired API token, found by its hash or its row id. A token
 * past its expires_at is refused; `touch` records that it was used (at most once a minute).
 */
async function tokenActor(
  db: Db,
  token: { hash: string } | { id: number },
  touch = false,
  projectId?: number,
): Promise<Caller | null> {
  const now = nowIso()
  const row =
    'hash' in token
      ? await (projectId === undefined ? TOKEN_BY_HASH : TOKEN_BY_HASH_IN_PROJECT)(db, {
          key: token.hash,
          now,
          projectId,
        })
      : await tokenQuery(db.kysely, 'id', token.id, now).executeTakeFirst()
  if (!row) return null
  if (
    touch &&
    (!row.last_used || Date.parse(now) - Date.parse(row.last_used) > TOUCH_INTERVAL_MS)
  ) {
    await db.kysely
      .updateTable('api_token')
      .set({ last_used: now })
      .where('id', '=', row.token_id)
      .execute()
  }
  return {
    actor: toActor(row, { tokenId: row.token_id }),
    membership: toMembership(row, projectId),
  }
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
  const found = await liveSession(db, session, touch)
  return found?.verified ? found.actor : null
}

/** A live session, verified or still waiting for its second factor. */
async function liveSession(
  db: Db,
  session: { hash: string } | { id: number },
  touch: boolean,
  projectId?: number,
): Promise<(Caller & { actor: Actor; verified: boolean }) | null> {
  const row =
    'hash' in session
      ? await (projectId === undefined ? SESSION_BY_HASH : SESSION_BY_HASH_IN_PROJECT)(db, {
          key: session.hash,
          projectId,
        })
      : await sessionQuery(db.kysely, 'id', session.id).executeTakeFirst()
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
  return {
    actor: toActor(row, { sessionId: row.session_id }),
    verified: Boolean(row.verified),
    membership: toMembership(row, projectId),
  }
}

/**
 * Finds who is calling: a bearer API token first, else the session cookie. A session still
 * waiting for its second factor is refused with 401 TOTP_REQUIRED, except on public routes,
 * which it reaches signed out. With `reply`, the cookies of an ended session are cleared.
 */
export async function resolveActor(
  db: Db,
  request: FastifyRequest,
  reply?: FastifyReply,
): Promise<Actor | null> {
  return (await resolveCaller(db, request, reply)).actor
}

/**
 * resolveActor, which with `projectId` also reads the caller's membership of that project in
 * the same statement, for the access check of a project route (see enforceAccess).
 */
export async function resolveCaller(
  db: Db,
  request: FastifyRequest,
  reply?: FastifyReply,
  projectId?: number,
): Promise<Caller> {
  const token = bearerToken(request)
  if (token) return (await tokenActor(db, { hash: sha256(token) }, true, projectId)) ?? NOBODY
  const cookie = request.cookies[SESSION_COOKIE]
  if (!cookie) return NOBODY
  const found = await liveSession(db, { hash: sha256(cookie) }, true, projectId)
  if (!found) {
    // An ended session's cookies go too, so that the marker never outlives the session.
    if (reply) clearSessionCookies(reply)
    return NOBODY
  }
  if (found.verified) return { actor: found.actor, membership: found.membership }
  if (isPublicRoute(request)) return NOBODY
  throw new UnauthorizedError(TOTP_REQUIRED)
}

/**
 * The session of the cookie (never of a bearer token, which needs no second factor), with
 * whether its second factor is still missing; null when there is no live session.
 */
export async function cookieSession(
  db: Db,
  request: FastifyRequest,
): Promise<{ actor: Actor; verified: boolean } | null> {
  const cookie = request.cookies[SESSION_COOKIE]
  if (!cookie) return null
  return liveSession(db, { hash: sha256(cookie) }, true)
}

/**
 * Reads again who `actor` is now, by the same session or token: null once that has ended
 * (signed out, expired, new password, user deleted). Does not count as using the session.
 */
export async function recheckActor(db: Db, actor: Actor): Promise<Actor | null> {
  if (actor.tokenId !== null) return (await tokenActor(db, { id: actor.tokenId }))?.actor ?? null
  if (actor.sessionId !== null) return sessionActor(db, { id: actor.sessionId }, false)
  return null
}
