import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createTable, idColumn, refColumn, SHORT, textType, TIMESTAMP } from './helpers.js'

/*
 * The alert outbox: one row per alert to deliver (per channel, and per recipient for
 * email), written when a task's status changes and sent in the background, so a slow or
 * failing chat service never delays or fails a task. A sender claims a row with a
 * compare-and-set on its status, so servers sharing the database never send one twice.
 * Rows hold the rendered message only; addresses and secrets stay in the settings.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await refColumn(idColumn(createTable(db, 'alert_outbox', dialect), dialect), 'task_id', 'task')
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('channel', SHORT, (c) => c.notNull())
    .addColumn('recipient', 'varchar(255)')
    .addColumn('payload', textType(dialect), (c) => c.notNull())
    .addColumn('status', SHORT, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('claimed_by', SHORT)
    .addColumn('claimed_at', TIMESTAMP)
    .addColumn('last_error', 'varchar(255)')
    .addColumn('created', TIMESTAMP, (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('alert_outbox_due_idx')
    .on('alert_outbox')
    .columns(['status', 'next_attempt_at'])
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('alert_outbox').execute()
}
