import type { Db } from '@flagman/db'
import { sql } from 'kysely'
import { listInstances, type InstanceRow } from './instances.repository.js'

/** What keeps a second instance off a database that serves one. */
export interface SingleInstanceLock {
  release(): Promise<void>
}

const DIALECT_NAME = { sqlite: 'SQLite', mysql: 'MariaDB/MySQL', postgres: 'PostgreSQL' } as const

function refusal(db: Db, other: InstanceRow | null): Error {
  const who = other
    ? `instance ${other.id} on ${other.host} (pid ${other.pid}, since ${other.started})`
    : 'another instance'
  return new Error(
    `Another Flagman server, ${who}, is serving this ${DIALECT_NAME[db.dialect]} database; ` +
      'it serves one instance at a time: stop that one first, or use PostgreSQL ' +
      '(FLAGMAN_DB=postgres://…) to run several',
  )
}

/**
 * MariaDB/MySQL: a named lock held by a connection of its own for as long as the server
 * runs. The database lets go of it the moment that connection ends, however the process
 * ended, so a restart after a crash never waits.
 */
async function holdMysqlLock(
  db: Db,
  alive: (row: InstanceRow) => boolean,
): Promise<SingleInstanceLock> {
  let release: () => void = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  let taken: (value: boolean) => void = () => {}
  const outcome = new Promise<boolean>((resolve) => (taken = resolve))
  const held = db.kysely
    .connection()
    .execute(async (connection) => {
      const got = await sql<{
        got: number | null
      }>`select get_lock(concat('flagman:', database()), 0) as got`.execute(connection)
      if (Number(got.rows[0]?.got) !== 1) {
        taken(false)
        return
      }
      taken(true)
      await released
      await sql`select release_lock(concat('flagman:', database()))`.execute(connection)
    })
    .catch(() => taken(false))
  if (!(await outcome)) {
    const { rows } = await listInstances(db)
    throw refusal(db, rows.find(alive) ?? rows[0] ?? null)
  }
  return {
    async release() {
      release()
      await held
    },
  }
}

/**
 * SQLite: the instances table itself, refusing when another instance there is alive (its
 * heartbeat recent, its process still there). The database file is local, so two servers
 * on it are two processes of one host, which this tells apart unless both start within the
 * same moment.
 */
async function checkSqlite(
  db: Db,
  alive: (row: InstanceRow) => boolean,
): Promise<SingleInstanceLock> {
  const { rows } = await listInstances(db)
  const other = rows.find((row) => alive(row))
  if (other) throw refusal(db, other)
  return { release: async () => {} }
}

export async function holdSingleInstanceLock(
  db: Db,
  alive: (row: InstanceRow) => boolean,
): Promise<SingleInstanceLock> {
  return db.dialect === 'mysql' ? holdMysqlLock(db, alive) : checkSqlite(db, alive)
}
