import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * The waiting queue lives in the task table, so that runners and several servers share it:
 * - `task.queue_reason`: why a waiting task has not started (shown in Active tasks);
 * - `task.secret`: run-time secret values, encrypted, kept only until the task starts;
 * - `task.claimed_by`: the server process that runs the task itself (null: a runner, or
 *   nobody yet); a claim is a compare-and-set on `status = 'waiting'`.
 * Runners carry tags; a template may require one.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('runner')
    .addColumn('tag', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .execute()
  await db.schema.alterTable('template').addColumn('runner_tag', 'varchar(255)').execute()
  await db.schema.alterTable('task').addColumn('queue_reason', 'varchar(255)').execute()
  await db.schema.alterTable('task').addColumn('secret', 'text').execute()
  await db.schema.alterTable('task').addColumn('claimed_by', 'varchar(64)').execute()
  await db.schema
    .createIndex('task_runner_idx')
    .on('task')
    .columns(['runner_id', 'status'])
    .execute()
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const index = db.schema.dropIndex('task_runner_idx')
  await (dialect === 'mysql' ? index.on('task') : index).execute()
  await db.schema.alterTable('task').dropColumn('claimed_by').execute()
  await db.schema.alterTable('task').dropColumn('secret').execute()
  await db.schema.alterTable('task').dropColumn('queue_reason').execute()
  await db.schema.alterTable('template').dropColumn('runner_tag').execute()
  await db.schema.alterTable('runner').dropColumn('tag').execute()
}
