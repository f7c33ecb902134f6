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
  await boolColumn(
    refColumn(
      refColumn(
        refColumn(
          idColumn(createTable(db, 'integration', dialect), dialect),
          'project_id',
          'project',
        ),
        'template_id',
        'template',
      ),
      'auth_secret_id',
      'access_key',
      { nullable: true, onDelete: 'set null' },
    )
      .addColumn('name', NAME, (c) => c.notNull())
      .addColumn('auth_method', SHORT, (c) => c.notNull().defaultTo(''))
      .addColumn('auth_header', NAME, (c) => c.notNull().defaultTo(''))
      .addColumn('task_params', TEXT),
    'searchable',
  ).execute()

  await refColumn(
    idColumn(createTable(db, 'integration_matcher', dialect), dialect),
    'integration_id',
    'integration',
  )
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('match_type', SHORT, (c) => c.notNull())
    .addColumn('method', SHORT, (c) => c.notNull())
    .addColumn('body_data_type', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('key', NAME, (c) => c.notNull().defaultTo(''))
    .addColumn('value', TEXT, (c) => c.notNull())
    .execute()

  await refColumn(
    idColumn(createTable(db, 'integration_extract_value', dialect), dialect),
    'integration_id',
    'integration',
  )
    .addColumn('name', NAME, (c) => c.notNull())
    .addColumn('value_source', SHORT, (c) => c.notNull())
    .addColumn('body_data_type', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('key', NAME, (c) => c.notNull().defaultTo(''))
    .addColumn('variable', NAME, (c) => c.notNull().defaultTo(''))
    .execute()

  await refColumn(
    refColumn(
      idColumn(createTable(db, 'integration_alias', dialect), dialect),
      'project_id',
      'project',
    ),
    'integration_id',
    'integration',
    { nullable: true },
  )
    .addColumn('alias', SHORT, (c) => c.notNull().unique())
    .execute()

  let runner = refColumn(
    idColumn(createTable(db, 'runner', dialect), dialect),
    'project_id',
    'project',
    {
      nullable: true,
    },
  )
  runner = boolColumn(runner, 'active')
  await runner
    .addColumn('name', NAME, (c) => c.notNull().defaultTo(''))
    .addColumn('token_hash', SHORT, (c) => c.notNull().unique())
    .addColumn('webhook', TEXT)
    .addColumn('max_parallel_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('public_key', TEXT)
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('touched', TIMESTAMP)
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'runner',
    'integration_alias',
    'integration_extract_value',
    'integration_matcher',
    'integration',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
