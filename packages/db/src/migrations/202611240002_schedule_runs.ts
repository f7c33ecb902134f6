import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createTable, idColumn, refColumn, SHORT, TIMESTAMP } from './helpers.js'

/*
 * Schedules: a time zone of their own, a policy for times missed while the server was down,
 * and one record per due time, unique per schedule, so a due time starts at most one task
 * however many clocks see it.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('schedule')
    .addColumn('timezone', SHORT, (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema
    .alterTable('schedule')
    .addColumn('missed_run_policy', SHORT, (c) => c.notNull().defaultTo('skip'))
    .execute()
  // Every due time up to this one has been dealt with; empty until a clock has seen it.
  await db.schema.alterTable('schedule').addColumn('evaluated_until', TIMESTAMP).execute()

  await refColumn(
    refColumn(
      idColumn(createTable(db, 'schedule_run', dialect), dialect),
      'schedule_id',
      'schedule',
    ),
    'task_id',
    'task',
    { nullable: true, onDelete: 'set null' },
  )
    .addColumn('due', TIMESTAMP, (c) => c.notNull())
    .addColumn('fired', TIMESTAMP, (c) => c.notNull())
    .addColumn('outcome', SHORT, (c) => c.notNull())
    .addColumn('reason', SHORT)
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(1))
    .execute()
  await db.schema
    .createIndex('schedule_run_due_uq')
    .on('schedule_run')
    .columns(['schedule_id', 'due'])
    .unique()
    .execute()
  await db.schema
    .createIndex('schedule_run_task_idx')
    .on('schedule_run')
    .column('task_id')
    .execute()
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('schedule_run').execute()
  for (const column of ['evaluated_until', 'missed_run_policy', 'timezone']) {
    await db.schema.alterTable('schedule').dropColumn(column).execute()
  }
}
