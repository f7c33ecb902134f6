import type { Task, TaskWithTemplate } from '@flagman/contract'
import type { Database, Db, TaskTable } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import { parseStartTimings } from './start-timings.js'
import type { Kysely, Selectable } from 'kysely'

export type TaskRow = Selectable<TaskTable>

/** The columns a task's answer is made of; lists read only these (never the secrets). */
export const TASK_COLUMNS = [
  'id',
  'template_id',
  'project_id',
  'status',
  'debug',
  'dry_run',
  'diff',
  'playbook',
  'environment',
  'hosts_limit',
  'arguments',
  'git_branch',
  'message',
  'user_id',
  'integration_id',
  'schedule_id',
  'created',
  'start',
  'end',
  'commit_hash',
  'commit_message',
  'build_task_id',
  'version',
  'inventory_id',
  'params',
  'start_timings',
] as const satisfies readonly (keyof TaskRow)[]

export type TaskAnswerRow = Pick<TaskRow, (typeof TASK_COLUMNS)[number]>

function parseParams(text: string | null): Record<string, unknown> | null {
  if (!text) return null
  try {
    const value = JSON.parse(text) as unknown
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

export function toTask(row: TaskAnswerRow): Task {
  return {
    id: row.id,
    template_id: row.template_id,
    project_id: row.project_id,
    status: row.status,
    debug: Boolean(row.debug),
    dry_run: Boolean(row.dry_run),
    diff: Boolean(row.diff),
    playbook: row.playbook ?? '',
    environment: row.environment ?? '',
    secret: '{}',
    limit: row.hosts_limit ?? '',
    arguments: row.arguments,
    git_branch: row.git_branch,
    message: row.message ?? '',
    user_id: row.user_id,
    integration_id: row.integration_id,
    schedule_id: row.schedule_id,
    created: row.created,
    start: row.start,
    end: row.end,
    commit_hash: row.commit_hash,
    commit_message: row.commit_message ?? '',
    build_task_id: row.build_task_id,
    version: row.version,
    inventory_id: row.inventory_id,
    params: parseParams(row.params),
    start_timings: parseStartTimings(row.start_timings),
  }
}

export function findTaskRow(
  db: Kysely<Database>,
  projectId: number,
  id: number,
): Promise<TaskRow | undefined> {
  return db
    .selectFrom('task')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
}

/** The project of a task of any project, or undefined when there is no such task. */
export async function findTaskProjectId(
  db: Kysely<Database>,
  id: number,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('task')
    .select(['project_id'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.project_id
}

/** Adds the template's name, type and app, the user's name and the build task. */
export async function withTemplates(
  db: Kysely<Database>,
  rows: TaskAnswerRow[],
): Promise<TaskWithTemplate[]> {
  if (rows.length === 0) return []
  const templateIds = [...new Set(rows.map((r) => r.template_id))]
  const userIds = [...new Set(rows.map((r) => r.user_id).filter((v): v is number => v !== null))]
  const buildIds = [
    ...new Set(rows.map((r) => r.build_task_id).filter((v): v is number => v !== null)),
  ]
  const templates = await db
    .selectFrom('template')
    .select(['id', 'name', 'playbook', 'type', 'app'])
    .where('id', 'in', templateIds)
    .execute()
  const users = userIds.length
    ? await db.selectFrom('user').select(['id', 'name']).where('id', 'in', userIds).execute()
    : []
  const builds = buildIds.length
    ? await db.selectFrom('task').select(TASK_COLUMNS).where('id', 'in', buildIds).execute()
    : []
  const tpl = new Map(templates.map((t) => [t.id, t]))
  const names = new Map(users.map((u) => [u.id, u.name]))
  const buildMap = new Map(builds.map((b) => [b.id, toTask(b)]))
  return rows.map((row) => {
    const t = tpl.get(row.template_id)
    return {
      ...toTask(row),
      tpl_playbook: t?.playbook ?? '',
      tpl_alias: t?.name ?? '',
      tpl_type: t?.type ?? '',
      tpl_app: t?.app ?? '',
      user_name: row.user_id !== null ? (names.get(row.user_id) ?? null) : null,
      build_task: row.build_task_id !== null ? (buildMap.get(row.build_task_id) ?? null) : null,
    }
  })
}

export interface TaskPageQuery {
  projectId: number
  limit: number
  /** A template of the project (the caller has checked that it is). */
  templateId?: number
  status?: string
  /** Keyset cursor: only tasks with a lower id. */
  beforeId?: number
}

/**
 * A page of a project's (or a template's) tasks, newest first: a range scan of
 * task(project_id, id), or of task(template_id, id) / task(template_id, status, id).
 */
export function findTaskPage(db: Kysely<Database>, page: TaskPageQuery): Promise<TaskAnswerRow[]> {
  let query = db.selectFrom('task').select(TASK_COLUMNS).orderBy('id', 'desc').limit(page.limit)
  // A template's tasks are all in its project (checked by the caller), so the project is not
  // filtered on as well: with both, PostgreSQL intersects the two indexes and sorts the whole
  // template's history instead of reading one range of task(template_id, id).
  query =
    page.templateId === undefined
      ? query.where('project_id', '=', page.projectId)
      : query.where('template_id', '=', page.templateId)
  if (page.status) query = query.where('status', '=', page.status)
  if (page.beforeId !== undefined) query = query.where('id', '<', page.beforeId)
  return query.execute()
}

export interface NewTask {
  project_id: number
  template_id: number
  status: string
  user_id: number | null
  build_task_id?: number | null
  debug?: number
  dry_run?: number
  diff?: number
  playbook?: string | null
  environment?: string | null
  arguments?: string | null
  hosts_limit?: string | null
  git_branch?: string | null
  commit_hash?: string | null
  message?: string | null
  inventory_id?: number | null
  version?: string | null
  params?: string | null
  integration_id?: number | null
  schedule_id?: number | null
}

export async function insertTaskRow(db: Db, values: NewTask): Promise<TaskRow> {
  const id = await insertReturningId(db, 'task', { ...values, created: nowIso() })
  return db.kysely.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}
