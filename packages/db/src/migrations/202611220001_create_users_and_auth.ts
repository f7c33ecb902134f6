import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import {
  boolColumn,
  createTable,
  idColumn,
  NAME,
  refColumn,
  SHORT,
  textType,
  TIMESTAMP,
} from './helpers.js'

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const TEXT = textType(dialect)
  let user = idColumn(createTable(db, 'user', dialect), dialect)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('username', NAME, (c) => c.notNull().unique())
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('email', NAME, (c) => c.notNull().unique())
    .addColumn('password', TEXT)
  for (const flag of ['admin', 'external', 'alert', 'pro']) user = boolColumn(user, flag)
  await user.execute()

  await refColumn(idColumn(createTable(db, 'user_totp', dialect), dialect), 'user_id', 'user')
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('secret', TEXT, (c) => c.notNull())
    .addColumn('recovery_hash', TEXT)
    .execute()

  let session = refColumn(idColumn(createTable(db, 'session', dialect), dialect), 'user_id', 'user')
    .addColumn('token_hash', SHORT, (c) => c.notNull().unique())
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('last_active', TIMESTAMP, (c) => c.notNull())
    .addColumn('ip', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', NAME, (c) => c.notNull().defaultTo(''))
  session = boolColumn(boolColumn(session, 'expired'), 'verified')
  await session.execute()
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute()

  await boolColumn(
    refColumn(idColumn(createTable(db, 'api_token', dialect), dialect), 'user_id', 'user')
      .addColumn('prefix', 'varchar(16)', (c) => c.notNull())
      .addColumn('token_hash', SHORT, (c) => c.notNull().unique())
      .addColumn('created', TIMESTAMP, (c) => c.notNull()),
    'expired',
  ).execute()
  await db.schema.createIndex('api_token_user_idx').on('api_token').column('user_id').execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['api_token', 'session', 'user_totp', 'user']) {
    await db.schema.dropTable(table).execute()
  }
}
