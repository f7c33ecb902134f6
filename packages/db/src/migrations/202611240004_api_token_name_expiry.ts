import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { NAME, TIMESTAMP } from './helpers.js'

/*
 * API tokens get a name, an optional expiry and the time they were last used. Existing
 * tokens keep working: they get an empty name and never expire.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('api_token')
    .addColumn('name', NAME, (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema.alterTable('api_token').addColumn('expires_at', TIMESTAMP).execute()
  await db.schema.alterTable('api_token').addColumn('last_used', TIMESTAMP).execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  for (const column of ['last_used', 'expires_at', 'name']) {
    await db.schema.alterTable('api_token').dropColumn(column).execute()
  }
}
