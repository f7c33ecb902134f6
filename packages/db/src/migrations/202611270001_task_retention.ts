import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'
import { createOnline, dropOnline, type IndexSpec } from './202611250001_history_indexes.js'

/*
 * Retention by age: a project may keep its task history a number of days (null: the
 * server's default, 0: for ever) and at most a number of runs per template (null or 0: no
 * limit). The background sweep finds what is due by creation time, so tasks and events get
 * an index on it. Expand only: new nullable columns and indexes, which instances of the
 * previous version serving during a rolling upgrade neither read nor mind.
 */
export const transaction = false

const RETENTION_INDEXES: readonly IndexSpec[] = [
  { name: 'task_project_created_idx', table: 'task', columns: ['project_id', 'created'] },
  { name: 'event_created_idx', table: 'event', columns: ['created'] },
]

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const columns = await db.introspection.getTables()
  const project = columns.find((table) => table.name === 'project')
  const has = (name: string) => project?.columns.some((column) => column.name === name) ?? false
  // Outside a transaction: a column added by an interrupted run is not added twice.
  if (!has('task_retention_days')) {
    await db.schema.alterTable('project').addColumn('task_retention_days', 'integer').execute()
  }
  if (!has('max_tasks_per_template')) {
    await db.schema.alterTable('project').addColumn('max_tasks_per_template', 'integer').execute()
  }
  for (const index of RETENTION_INDEXES) await createOnline(db, dialect, index)
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const index of [...RETENTION_INDEXES].reverse()) await dropOnline(db, dialect, index)
  await db.schema.alterTable('project').dropColumn('max_tasks_per_template').execute()
  await db.schema.alterTable('project').dropColumn('task_retention_days').execute()
}
