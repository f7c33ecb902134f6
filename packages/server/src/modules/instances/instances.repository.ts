import type { Db, ServerInstanceTable } from '@flagman/db'
import { sql, type RawBuilder } from 'kysely'

/** A server instance as stored. */
export type InstanceRow = ServerInstanceTable

/**
 * Now in ms since the epoch. PostgreSQL, where several instances meet, answers by its own
 * clock, the one they all share, so a host whose clock is off can neither be taken for dead
 * nor keep a dead one alive; elsewhere one instance serves the database and its clock is the
 * only one.
 */
export function clockOf(db: Db): RawBuilder<number> {
  return db.dialect === 'postgres'
    ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
    : sql<number>`${Date.now()}`
}

export async function insertInstance(db: Db, row: Omit<InstanceRow, 'heartbeat'>): Promise<void> {
  await db.kysely
    .insertInto('server_instance')
    .values({ ...row, heartbeat: clockOf(db) })
    .execute()
}

/** Moves the instance's heartbeat on; false when its row is gone (taken for dead). */
export async function beat(db: Db, id: string): Promise<boolean> {
  const result = await db.kysely
    .updateTable('server_instance')
    .set({ heartbeat: clockOf(db) })
    .where('id', '=', id)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Every instance with the database's now, in one round trip. */
export async function listInstances(db: Db): Promise<{ now: number; rows: InstanceRow[] }> {
  const rows = await db.kysely
    .selectFrom('server_instance')
    .select(['id', 'host', 'pid', 'version', 'started', 'heartbeat', clockOf(db).as('now')])
    .orderBy('started')
    .execute()
  if (rows.length === 0) {
    const now = await sql<{ now: number }>`select ${clockOf(db)} as now`.execute(db.kysely)
    return { now: Number(now.rows[0]?.now ?? Date.now()), rows: [] }
  }
  return {
    now: Number(rows[0]!.now),
    rows: rows.map(({ now: _now, ...row }) => ({ ...row, heartbeat: Number(row.heartbeat) })),
  }
}

/**
 * Removes a dead instance's row, unless it has beaten since it was seen: of several
 * instances that find it dead at once, exactly one removes it and takes over its tasks.
 */
export async function removeDead(db: Db, row: InstanceRow): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('server_instance')
    .where('id', '=', row.id)
    .where('heartbeat', '=', row.heartbeat)
    .executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}

export async function removeInstance(db: Db, id: string): Promise<void> {
  await db.kysely.deleteFrom('server_instance').where('id', '=', id).execute()
}
