import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createTable, NAME, SHORT, TIMESTAMP } from './helpers.js'

/*
 * Server instances serving this database, each with a heartbeat. On PostgreSQL several
 * instances share the database and take over the tasks of one whose heartbeat stopped; on
 * SQLite and MariaDB/MySQL a second instance finds the first here and refuses to start.
 * `heartbeat` is milliseconds since the epoch by the database's clock on PostgreSQL (the one
 * clock every instance shares), by the server's elsewhere. A new table: older instances
 * still serving during a rolling upgrade never read it.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await createTable(db, 'server_instance', dialect)
    .addColumn('id', SHORT, (c) => c.primaryKey())
    .addColumn('host', NAME, (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('version', SHORT, (c) => c.notNull())
    .addColumn('started', TIMESTAMP, (c) => c.notNull())
    .addColumn('heartbeat', 'bigint', (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.dropTable('server_instance').execute()
}
