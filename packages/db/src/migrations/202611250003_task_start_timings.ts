import type { Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * `task.start_timings`: where a task's start time went (queued, building the job, preparing
 * the repository, spawning…), measured by the process that started it; JSON text, see
 * TaskStartTimings in the contract. Null for tasks that have not started or started before.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('task').addColumn('start_timings', 'text').execute()
}

export async function down(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('task').dropColumn('start_timings').execute()
}
