import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * Each output row's line number within its task (1-based, assigned when it is stored), so a
 * page of a long log is an index range scan on (task_id, line) instead of an OFFSET scan.
 * Rows stored before it have no number: they keep their order by id and are read that way.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('task_output').addColumn('line', 'integer').execute()
  await db.schema
    .createIndex('task_output_line_idx')
    .on('task_output')
    .columns(['task_id', 'line'])
    .execute()
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const drop = db.schema.dropIndex('task_output_line_idx')
  await (dialect === 'mysql' ? drop.on('task_output') : drop).execute()
  await db.schema.alterTable('task_output').dropColumn('line').execute()
}
