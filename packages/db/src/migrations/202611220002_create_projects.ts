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
  await boolColumn(idColumn(createTable(db, 'project', dialect), dialect), 'alert')
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('alert_chat', NAME)
    .addColumn('max_parallel_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('type', SHORT, (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema.createIndex('project_name_idx').on('project').column('name').execute()

  await refColumn(
    refColumn(idColumn(createTable(db, 'project_user', dialect), dialect), 'project_id', 'project'),
    'user_id',
    'user',
  )
    .addColumn('role', SHORT, (c) => c.notNull())
    .addUniqueConstraint('project_user_member_uq', ['project_id', 'user_id'])
    .execute()
  await db.schema
    .createIndex('project_user_user_idx')
    .on('project_user')
    .column('user_id')
    .execute()

  // Activity log. Project and user links are plain columns (no foreign keys): events of
  // a deleted user stay readable, and events of a deleted project are removed with it.
  await idColumn(createTable(db, 'event', dialect), dialect)
    .addColumn('project_id', 'integer')
    .addColumn('user_id', 'integer')
    .addColumn('integration_id', 'integer')
    .addColumn('object_id', 'integer')
    .addColumn('object_type', SHORT, (c) => c.notNull())
    .addColumn('object_name', NAME, (c) => c.notNull().defaultTo(''))
    .addColumn('description', TEXT, (c) => c.notNull())
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('event_project_idx')
    .on('event')
    .columns(['project_id', 'id'])
    .execute()

  await createTable(db, 'option', dialect)
    .addColumn('key', NAME, (c) => c.primaryKey())
    .addColumn('value', TEXT, (c) => c.notNull())
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['option', 'event', 'project_user', 'project']) {
    await db.schema.dropTable(table).execute()
  }
}
