import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * The Docker image an environment's tasks are meant to run in, chosen in the console. Its own
 * column: the password column is a write-only secret and never shown back.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('environment').addColumn('image', 'varchar(255)').execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('environment').dropColumn('image').execute()
}
