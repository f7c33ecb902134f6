import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * Two-factor sign-in: the time step of the last accepted code, so a code is accepted once,
 * and at most one second factor per user.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('user_totp').addColumn('last_step', 'integer').execute()
  await db.schema
    .createIndex('user_totp_user_uq')
    .on('user_totp')
    .column('user_id')
    .unique()
    .execute()
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'mysql') {
    // MySQL's foreign key on user_id uses the unique index; it needs another one first.
    await db.schema.createIndex('user_totp_user_idx').on('user_totp').column('user_id').execute()
    await db.schema.dropIndex('user_totp_user_uq').on('user_totp').execute()
  } else {
    await db.schema.dropIndex('user_totp_user_uq').execute()
  }
  await db.schema.alterTable('user_totp').dropColumn('last_step').execute()
}
