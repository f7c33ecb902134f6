import type { User } from '@flagman/contract'
import type { Database, Db, Dialect, UserTable } from '@flagman/db'
import { sql, type Kysely, type Selectable } from 'kysely'

export type UserRow = Selectable<UserTable>

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    created: row.created,
    username: row.username,
    name: row.name,
    email: row.email,
    admin: Boolean(row.admin),
    external: Boolean(row.external),
    alert: Boolean(row.alert),
    pro: Boolean(row.pro),
  }
}

export function findUser(db: Kysely<Database>, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('user').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Looks a user up by login or email, ignoring case. */
export function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const lower = login.toLowerCase()
  return db.kysely
    .selectFrom('user')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['username']), '=', lower),
        eb(eb.fn('lower', ['email']), '=', lower),
      ]),
    )
    .orderBy('id')
    .executeTakeFirst()
}

export function listUserRows(db: Db): Promise<UserRow[]> {
  return db.kysely.selectFrom('user').selectAll().orderBy('name').orderBy('id').execute()
}

export async function countAdmins(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('user')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('admin', '=', 1)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The existing user (other than `exceptId`) that already has this username or email. */
export async function findClash(
  db: Kysely<Database>,
  username: string,
  email: string,
  exceptId: number | null,
): Promise<'username' | 'email' | null> {
  let query = db
    .selectFrom('user')
    .select(['username', 'email'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['username']), '=', username.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      ]),
    )
  if (exceptId !== null) query = query.where('id', '!=', exceptId)
  const rows = await query.execute()
  if (rows.some((r) => r.username.toLowerCase() === username.toLowerCase())) return 'username'
  return rows.length > 0 ? 'email' : null
}

/**
 * Ends every API token of a user and every session except `keepSessionId`: what was
 * signed in with the old password stops working.
 */
export async function expireCredentials(
  db: Kysely<Database>,
  userId: number,
  keepSessionId: number | null,
): Promise<void> {
  let query = db.updateTable('session').set({ expired: 1 }).where('user_id', '=', userId)
  if (keepSessionId !== null) query = query.where('id', '!=', keepSessionId)
  await query.execute()
  await db
    .updateTable('api_token')
    .set({ expired: 1 })
    .where('user_id', '=', userId)
    .where('expired', '=', 0)
    .execute()
}

/** Key of the PostgreSQL advisory lock taken by lockUsers ("flag" in ASCII). */
const USERS_LOCK = 0x666c6167

/**
 * Makes changes to users wait for each other until the transaction ends, on PostgreSQL.
 * Usernames and emails are unique ignoring case, which its unique indexes do not enforce,
 * and "keep one admin" is a rule across rows: two racing requests could each pass the
 * check and together break it. SQLite runs one write at a time, and MySQL's indexes
 * already ignore case.
 */
export async function lockUsers(trx: Kysely<Database>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${USERS_LOCK})`.execute(trx)
}
