import type { Insertable, Kysely } from 'kysely'
import type { Database } from './database.js'
import type { Db } from './dialects/create-db.js'

/** Current time as stored in every timestamp column. */
export function nowIso(): string {
  return new Date().toISOString()
}

/** 0/1 for a boolean column. */
export function flag(value: boolean | undefined | null): number {
  return value ? 1 : 0
}

/**
 * Inserts one row and returns its new id. MySQL has no RETURNING, so it reads the
 * driver's insert id there.
 */
export async function insertReturningId<T extends keyof Database & string>(
  db: Db | { kysely: Kysely<Database>; dialect: Db['dialect'] },
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const query = (db.kysely as Kysely<any>).insertInto(table).values(values)
  if (db.dialect === 'mysql') {
    const result = await query.executeTakeFirstOrThrow()
    return Number(result.insertId)
  }
  const row = (await query.returning('id').executeTakeFirstOrThrow()) as { id: number }
  return Number(row.id)
}
