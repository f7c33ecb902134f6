import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createTable, idColumn, refColumn, SHORT, TIMESTAMP } from './helpers.js'

/*
 * Webhook deliveries: the recent deliveries of each integration (when, from where, what came
 * of it, which task it started), and the integration's debounce option.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('integration')
    .addColumn('debounce', 'integer', (c) => c.notNull().defaultTo(0))
    .execute()

  await refColumn(
    idColumn(createTable(db, 'integration_delivery', dialect), dialect),
    'integration_id',
    'integration',
  )
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .addColumn('source', SHORT, (c) => c.notNull().defaultTo(''))
    .addColumn('result', SHORT, (c) => c.notNull())
    .addColumn('task_id', 'integer')
    .execute()
  await db.schema
    .createIndex('integration_delivery_integration_idx')
    .on('integration_delivery')
    .columns(['integration_id', 'id'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('integration_delivery').execute()
  await db.schema.alterTable('integration').dropColumn('debounce').execute()
}
