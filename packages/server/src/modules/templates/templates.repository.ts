import type { Schedule, Template } from '@flagman/contract'
import type { Database, Db, TemplateTable, TemplateVaultTable } from '@flagman/db'
import { sql, type Kysely, type Selectable } from 'kysely'
import { findHistories, toSchedule } from '../schedules/schedules.repository.js'

export type TemplateRow = Selectable<TemplateTable>
type VaultRow = Selectable<TemplateVaultTable>

function parseJson<T>(text: string | null): T | null {
  if (!text) return null
  try {
    return JSON.parse(text) as T
  } catch {
    return null
  }
}

type LastTask = NonNullable<Template['last_task']>

/** Task counts and newest task of each template, in two queries for the whole list. */
async function taskSummaries(db: Kysely<Database>, templateIds: number[]) {
  const counts = new Map<number, number>()
  const last = new Map<number, LastTask>()
  if (templateIds.length === 0) return { counts, last }
  const countRows = await db
    .selectFrom('task')
    .select(['template_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('template_id', 'in', templateIds)
    .groupBy('template_id')
    .execute()
  for (const row of countRows) counts.set(row.template_id, Number(row.n))
  const newest = db
    .selectFrom('task')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('template_id', 'in', templateIds)
    .groupBy('template_id')
  const rows = await db
    .selectFrom('task')
    .innerJoin('template', 'template.id', 'task.template_id')
    .leftJoin('user', 'user.id', 'task.user_id')
    .select([
      'task.id',
      'task.template_id',
      'task.project_id',
      'task.status',
      'task.message',
      'task.commit_hash',
      'task.commit_message',
      'task.version',
      'task.user_id',
      'task.created',
      'task.start',
      'task.end',
      'user.name as user_name',
      'template.name as tpl_alias',
      'template.type as tpl_type',
      'template.app as tpl_app',
      'template.playbook as tpl_playbook',
    ])
    .where('task.id', 'in', newest)
    .execute()
  for (const row of rows) {
    last.set(row.template_id, {
      ...row,
      message: row.message ?? '',
      commit_message: row.commit_message ?? '',
      user_name: row.user_name ?? null,
    })
  }
  return { counts, last }
}

async function vaultsOf(
  db: Kysely<Database>,
  templateIds: number[],
): Promise<Map<number, VaultRow[]>> {
  const byTemplate = new Map<number, VaultRow[]>()
  if (templateIds.length === 0) return byTemplate
  const rows = await db
    .selectFrom('template_vault')
    .selectAll()
    .where('template_id', 'in', templateIds)
    .orderBy('id')
    .execute()
  for (const row of rows) {
    if (!byTemplate.has(row.template_id)) byTemplate.set(row.template_id, [])
    byTemplate.get(row.template_id)!.push(row)
  }
  return byTemplate
}

/** Maps rows to wire templates, with vaults, task counts and the newest task. */
export async function toTemplates(db: Kysely<Database>, rows: TemplateRow[]): Promise<Template[]> {
  const ids = rows.map((r) => r.id)
  const [{ counts, last }, vaults] = await Promise.all([taskSummaries(db, ids), vaultsOf(db, ids)])
  return rows.map((row) => ({
    id: row.id,
    project_id: row.project_id,
    name: row.name,
    description: row.description,
    type: row.type,
    app: row.app,
    playbook: row.playbook,
    arguments: row.arguments,
    allow_override_args_in_task: Boolean(row.allow_override_args_in_task),
    inventory_id: row.inventory_id,
    repository_id: row.repository_id,
    environment_id: row.environment_id,
    view_id: row.view_id,
    build_template_id: row.build_template_id,
    start_version: row.start_version,
    autorun: Boolean(row.autorun),
    git_branch: row.git_branch,
    survey_vars: parseJson(row.survey_vars),
    vaults: (vaults.get(row.id) ?? []).map((v) => ({
      id: v.id,
      project_id: v.project_id,
      template_id: v.template_id,
      name: v.name,
      type: v.type,
      vault_key_id: v.vault_key_id,
      script: v.script,
    })),
    suppress_success_alerts: Boolean(row.suppress_success_alerts),
    task_params: parseJson(row.task_params),
    runner_tag: row.runner_tag || null,
    tasks: counts.get(row.id) ?? 0,
    last_task: last.get(row.id) ?? null,
  }))
}

const SORT = {
  name: 'template.name',
  playbook: 'template.playbook',
  inventory: 'inventory.name',
  environment: 'environment.name',
  repository: 'repository.name',
} as const

/** The template columns a listed template is made of (see toTemplates). */
const LIST_COLUMNS = [
  'template.id',
  'template.project_id',
  'template.inventory_id',
  'template.repository_id',
  'template.environment_id',
  'template.view_id',
  'template.allow_override_args_in_task',
  'template.autorun',
  'template.suppress_success_alerts',
  'template.name',
  'template.description',
  'template.type',
  'template.app',
  'template.playbook',
  'template.arguments',
  'template.build_template_id',
  'template.start_version',
  'template.git_branch',
  'template.survey_vars',
  'template.task_params',
  'template.runner_tag',
  'template.created',
] as const

/**
 * `text` as a LIKE pattern matching it literally anywhere. The escape character is `!`: a
 * backslash would need writing differently on each database.
 */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`
}

export interface TemplateListFilter {
  app?: string
  viewId?: number
  sort?: keyof typeof SORT
  order?: string
  /** Only templates whose name holds this text, whatever its case. */
  search?: string
  /** One page of the sorted list: at most `limit` templates from the `offset`-th (0-based). */
  limit?: number
  offset?: number
}

export async function findTemplates(
  db: Db,
  projectId: number,
  filter: TemplateListFilter,
): Promise<TemplateRow[]> {
  let query = db.kysely
    .selectFrom('template')
    .leftJoin('inventory', 'inventory.id', 'template.inventory_id')
    .leftJoin('environment', 'environment.id', 'template.environment_id')
    .leftJoin('repository', 'repository.id', 'template.repository_id')
    .select(LIST_COLUMNS)
    .where('template.project_id', '=', projectId)
  if (filter.app) query = query.where('template.app', '=', filter.app)
  if (filter.viewId !== undefined) query = query.where('template.view_id', '=', filter.viewId)
  if (filter.search) {
    const pattern = containsPattern(filter.search)
    query = query.where(sql<boolean>`lower(template.name) like ${pattern} escape '!'`)
  }
  const column = SORT[filter.sort ?? 'name']
  const direction = filter.order === 'desc' ? 'desc' : 'asc'
  // Databases disagree on where NULL sorts; templates without the joined row come first.
  let sorted = query
    .orderBy(sql`case when ${sql.ref(column)} is null then 0 else 1 end`, direction)
    .orderBy(column, direction)
    .orderBy('template.id')
  if (filter.limit !== undefined || filter.offset !== undefined) {
    // MySQL has no OFFSET without LIMIT; a page without a limit runs to the end.
    sorted = sorted.limit(filter.limit ?? 2_147_483_647).offset(filter.offset ?? 0)
  }
  return sorted.execute()
}

export function findTemplateRow(
  db: Kysely<Database>,
  projectId: number,
  id: number,
): Promise<TemplateRow | undefined> {
  return db
    .selectFrom('template')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findCommitCheckSchedules(
  db: Db,
  projectId: number,
  templateId: number,
): Promise<Schedule[]> {
  const rows = await db.kysely
    .selectFrom('schedule')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('template_id', '=', templateId)
    .where('repository_id', 'is not', null)
    .orderBy('id')
    .execute()
  const histories = await findHistories(
    db.kysely,
    rows.map((r) => r.id),
  )
  return rows.map((r) => toSchedule(r, histories.get(r.id)))
}
