import { CreateTokenBody, describeIssues, type ApiToken } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import { newApiToken, sha256 } from '../../lib/secrets.js'
import { announceAccessChange } from '../../platform/access-changes.js'
import { BadRequestError } from '../../platform/errors.js'

/** Listed tokens show only this many leading characters; the whole token is shown once. */
const PREFIX_LENGTH = 8

/** Whether a token has ended: revoked (or ended by a password change), or past its expiry. */
function hasEnded(row: { expired: number; expires_at: string | null }, now: string): boolean {
  return Boolean(row.expired) || (row.expires_at !== null && row.expires_at <= now)
}

export async function listTokens(db: Db, userId: number): Promise<ApiToken[]> {
  const rows = await db.kysely
    .selectFrom('api_token')
    .select(['prefix', 'name', 'created', 'expired', 'expires_at', 'last_used', 'user_id'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()
  const now = nowIso()
  return rows.map((r) => ({
    id: r.prefix,
    created: r.created,
    expired: hasEnded(r, now),
    user_id: r.user_id,
    name: r.name,
    expires_at: r.expires_at,
    last_used: r.last_used,
    prefix: r.prefix,
  }))
}

/**
 * The body of a create call, which may be absent: the compatible API takes none. Parsed
 * here because the route declares no body for that reason.
 */
export function parseCreateTokenBody(body: unknown): { name: string; expiresAt: string | null } {
  const result = CreateTokenBody.safeParse(body ?? {})
  if (!result.success) throw new BadRequestError(describeIssues(result.error.issues))
  const name = result.data.name ?? ''
  if (name.includes('\u0000')) throw new BadRequestError('name can not contain the NUL character')
  const raw = result.data.expires_at ?? null
  if (raw === null) return { name, expiresAt: null }
  const expiresAt = new Date(raw)
  if (Number.isNaN(expiresAt.getTime())) {
    throw new BadRequestError('expires_at must be a date and time like 2030-01-31T12:00:00Z')
  }
  if (expiresAt.getTime() <= Date.now())
    throw new BadRequestError('expires_at must be in the future')
  if (expiresAt.getUTCFullYear() > 9999) throw new BadRequestError('expires_at is too far away')
  return { name, expiresAt: expiresAt.toISOString() }
}

/** Creates a token; the answer is the only time the whole token is shown. */
export async function createToken(
  db: Db,
  userId: number,
  input: { name: string; expiresAt: string | null } = { name: '', expiresAt: null },
): Promise<ApiToken> {
  const token = newApiToken()
  const created = nowIso()
  const prefix = token.slice(0, PREFIX_LENGTH)
  await db.kysely
    .insertInto('api_token')
    .values({
      user_id: userId,
      prefix,
      token_hash: sha256(token),
      created,
      name: input.name,
      expires_at: input.expiresAt,
    })
    .execute()
  return {
    id: token,
    created,
    expired: false,
    user_id: userId,
    name: input.name,
    expires_at: input.expiresAt,
    last_used: null,
    prefix,
  }
}

/** Expires one of the user's tokens, named by the whole token or its listed prefix. */
export async function expireToken(db: Db, userId: number, id: string): Promise<void> {
  const lower = id.toLowerCase()
  const ended = await db.kysely.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('api_token')
      .select('id')
      .where('user_id', '=', userId)
      .where('expired', '=', 0)
      .where((eb) =>
        lower.length > PREFIX_LENGTH
          ? eb('token_hash', '=', sha256(lower))
          : eb('prefix', '=', lower),
      )
      .execute()
    const ids = rows.map((r) => r.id)
    if (ids.length > 0) {
      await trx.updateTable('api_token').set({ expired: 1 }).where('id', 'in', ids).execute()
    }
    return ids
  })
  // Live sockets signed in with these tokens close before the answer leaves.
  if (ended.length > 0) announceAccessChange(db, { kind: 'tokens-ended', tokenIds: ended })
}
