import type { Runner, RunnerTask } from '@flagman/contract'
import type { Database, RunnerTable } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import { ACTIVE_STATUSES } from '../tasks/index.js'

export type RunnerRow = Selectable<RunnerTable>

/** Statuses of a task a runner holds: every unfinished one but `waiting` (not assigned yet). */
export const RUNNER_TASK_STATUSES = ACTIVE_STATUSES.filter((s) => s !== 'waiting')

/** Where a runner lives: a project's id, or null for the global (administrators') ones. */
export type RunnerScope = number | null

/** The unfinished tasks of each runner, oldest first. */
export async function runningTasks(
  db: Kysely<Database>,
  runnerIds: number[],
): Promise<Map<number, RunnerTask[]>> {
  const byRunner = new Map<number, RunnerTask[]>()
  if (runnerIds.length === 0) return byRunner
  const rows = await db
    .selectFrom('task')
    .select(['id', 'project_id', 'status', 'runner_id'])
    .where('runner_id', 'in', runnerIds)
    .where('status', 'in', [...RUNNER_TASK_STATUSES])
    .orderBy('id')
    .execute()
  for (const row of rows) {
    if (row.runner_id === null) continue
    const list = byRunner.get(row.runner_id) ?? []
    list.push({ task_id: row.id, project_id: row.project_id, status: row.status })
    byRunner.set(row.runner_id, list)
  }
  return byRunner
}

/** Whether a runner was heard from within the timeout (seconds). */
export function isOnline(
  touched: string | null,
  timeoutSeconds: number,
  now = Date.now(),
): boolean {
  if (!touched) return false
  const at = Date.parse(touched)
  return Number.isFinite(at) && now - at <= timeoutSeconds * 1000
}

/** Runners as the API shows them; never the token hash nor the public key. */
export async function toRunners(
  db: Kysely<Database>,
  rows: RunnerRow[],
  timeoutSeconds: number,
): Promise<Runner[]> {
  const tasks = await runningTasks(
    db,
    rows.map((r) => r.id),
  )
  const now = Date.now()
  return rows.map((row) => ({
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    webhook: row.webhook ?? '',
    max_parallel_tasks: row.max_parallel_tasks,
    active: Boolean(row.active),
    tag: row.tag,
    touched: row.touched,
    online: isOnline(row.touched, timeoutSeconds, now),
    running_tasks: tasks.get(row.id) ?? [],
  }))
}

export function listRunnerRows(db: Kysely<Database>, scope: RunnerScope): Promise<RunnerRow[]> {
  const query = db.selectFrom('runner').selectAll()
  return (
    scope === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', scope)
  )
    .orderBy('id')
    .execute()
}

/** A runner of the scope; a runner of another scope is as unknown as a missing one. */
export function findRunnerRow(
  db: Kysely<Database>,
  scope: RunnerScope,
  id: number,
): Promise<RunnerRow | undefined> {
  const query = db.selectFrom('runner').selectAll().where('id', '=', id)
  return (
    scope === null ? query.where('project_id', 'is', null) : query.where('project_id', '=', scope)
  ).executeTakeFirst()
}

/** The runner holding this token hash (any scope). */
export function findRunnerByTokenHash(
  db: Kysely<Database>,
  tokenHash: string,
): Promise<RunnerRow | undefined> {
  return db.selectFrom('runner').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()
}

/** Whether any runner exists, in any project: the console then shows runner locations. */
export async function anyRunner(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('runner').select('id').limit(1).executeTakeFirst()
  return row !== undefined
}
