import type { ApiToken } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import { newApiToken, sha256 } from '../../lib/secrets.js'
import { announceAccessChange } from '../../platform/access-changes.js'

/** Listed tokens show only this many leading characters; the whole token is shown once. */
const PREFIX_LENGTH = 8

export async function listTokens(db: Db, userId: number): Promise<ApiToken[]> {
  const rows = await db.kysely
    .selectFrom('api_token')
    .select(['prefix', 'created', 'expired', 'user_id'])
    .where('user_id', '=', userId)
    .orderBy('id', 'desc')
    .execute()
  return rows.map((r) => ({
    id: r.prefix,
    created: r.created,
    expired: Boolean(r.expired),
    user_id: r.user_id,
  }))
}

/** Creates a token; the answer is the only time the whole token is shown. */
export async function createToken(db: Db, userId: number): Promise<ApiToken> {
  const token = newApiToken()
  const created = nowIso()
  await db.kysely
    .insertInto('api_token')
    .values({
      user_id: userId,
      prefix: token.slice(0, PREFIX_LENGTH),
      token_hash: sha256(token),
      created,
    })
    .execute()
  return { id: token, created, expired: false, user_id: userId }
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
