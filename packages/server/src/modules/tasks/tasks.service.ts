import type {
  CreateTaskBody,
  StatsRow,
  Task,
  TaskOutput,
  TaskOutputCount,
  TaskOutputQuery,
  TaskWithTemplate,
} from '@flagman/contract'
import { AnsibleParams, isFinished, TerraformParams } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { posix } from 'node:path'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { AppError, BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/events.repository.js'
import { assertInProject } from '../project-scope.js'
import type { TaskQueue } from './task-queue.js'
import {
  canEditTemplates,
  checkBranchOverride,
  checkPlaybookOverride,
  checkTaskArguments,
  checkTaskLimit,
  checkTaskMessage,
  checkTaskVariables,
  surveyVars,
  type SurveyVarDef,
  type TaskRequester,
} from './task-overrides.js'
import { countOutputLines, readOutputPage, readWholeOutput } from './task-output.repository.js'
import {
  findTaskPage,
  findTaskRow,
  insertTaskRow,
  toTask,
  withTemplates,
  type TaskPageQuery,
} from './tasks.repository.js'

type CreateInput = z.output<typeof CreateTaskBody>

function jsonObject(text: string | null | undefined, what: string): Record<string, unknown> {
  if (text === null || text === undefined || text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new BadRequestError(`${what} must be a JSON object`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new BadRequestError(`${what} must be a JSON object`)
  }
  return value as Record<string, unknown>
}

const empty = (v: unknown): boolean => v === undefined || v === null || v === ''

/** Checks survey values: required ones present, integers digits only, enums declared. */
export function checkSurvey(
  vars: SurveyVarDef[],
  values: Record<string, unknown>,
  secrets: Record<string, unknown>,
): void {
  for (const v of vars) {
    const value = v.type === 'secret' ? (secrets[v.name] ?? values[v.name]) : values[v.name]
    if (empty(value)) {
      if (v.required) throw new BadRequestError(`Survey variable ${v.name} is required`)
      continue
    }
    if (v.type === 'int' && !/^\d+$/.test(String(value))) {
      throw new BadRequestError(`Survey variable ${v.name} must be an integer`)
    }
    if (v.type === 'enum') {
      const allowed = (v.values ?? []).map((x) => x.value)
      if (!allowed.includes(String(value))) {
        throw new BadRequestError(`Survey variable ${v.name} must be one of: ${allowed.join(', ')}`)
      }
    }
  }
}

/** Next version of a build template (reference: start_version pattern, newest task). */
export function nextBuildVersion(startVersion: string | null, last: string | null): string | null {
  const start = startVersion ?? ''
  if (last === null || last === undefined) return startVersion
  const pattern = /^(.*[^\d])?(\d+)([^\d].*)?$/
  const s = pattern.exec(start)
  const l = pattern.exec(last)
  if (!s || !l) return startVersion
  if ((s[1] ?? '') !== (l[1] ?? '') || (s[3] ?? '') !== (l[3] ?? '')) return startVersion
  const startNumber = Number(s[2])
  const current = Number(l[2])
  const next = startNumber > current ? startNumber : current + 1
  return `${s[1] ?? ''}${next}${s[3] ?? ''}`
}

/** Checks the types of the parameters the task's app reads; other keys are kept as sent. */
function checkParams(params: Record<string, unknown> | null | undefined, app: string): void {
  if (!params) return
  const schema =
    app === 'ansible' || app === ''
      ? AnsibleParams
      : app === 'terraform' || app === 'tofu'
        ? TerraformParams
        : null
  const result = schema?.loose().safeParse(params)
  const issue = result?.success === false ? result.error.issues[0] : undefined
  if (issue) {
    throw new BadRequestError(`Invalid task parameter ${issue.path.join('.')}: ${issue.message}`)
  }
}

function foldParams(input: CreateInput, app: string): Record<string, unknown> {
  const params: Record<string, unknown> = { ...(input.params ?? {}) }
  if (app === 'ansible' || app === '') {
    if (input.debug && params.debug === undefined) params.debug = true
    if (input.dry_run && params.dry_run === undefined) params.dry_run = true
    if (input.diff && params.diff === undefined) params.diff = true
    if (input.limit && params.limit === undefined) {
      const limit = input.limit
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
      if (limit.length) params.limit = limit
    }
  }
  return params
}

/**
 * Whether a playbook, script or module path given with a task leaves the repository: an
 * absolute path or one climbing above the root with `..`. Terraform and tofu read a leading
 * `/` as the repository root.
 */
export function escapesRepository(path: string, app: string): boolean {
  const text = app === 'terraform' || app === 'tofu' ? path.replace(/^\/+/, '') : path
  if (text === '') return false
  if (posix.isAbsolute(text)) return true
  const normal = posix.normalize(text)
  return normal === '..' || normal.startsWith('../')
}

/** What started a task other than a person: a schedule or an integration (webhook). */
export interface TaskOrigin {
  scheduleId?: number
  integrationId?: number
}

/**
 * Queues a task of a template. `requester` is the person asking, with their permissions in
 * the project, or null for the server itself (schedules); what they may change beyond the
 * template is decided in `task-overrides.ts`.
 */
export async function createTask(
  db: Db,
  queue: TaskQueue,
  requester: TaskRequester | null,
  projectId: number,
  input: CreateInput,
  origin: TaskOrigin = {},
): Promise<Task> {
  if (!queue.isOpen) throw new AppError(503, 'The server is shutting down')
  const template = await db.kysely
    .selectFrom('template')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', input.template_id)
    .executeTakeFirst()
  if (!template) throw new NotFoundError('Template')
  const trusted = canEditTemplates(requester)
  if (input.playbook && escapesRepository(input.playbook, template.app)) {
    throw new BadRequestError('playbook must be a path inside the repository')
  }
  checkPlaybookOverride(template, trusted, input.playbook)
  checkBranchOverride(template, trusted, input)
  checkTaskMessage(template, trusted, input.message)
  if (input.inventory_id) {
    await assertInProject(db.kysely, 'inventory', projectId, input.inventory_id, 'Inventory')
  }
  let args: string | null = null
  if (input.arguments !== null && input.arguments !== undefined && input.arguments.trim() !== '') {
    if (!template.allow_override_args_in_task) {
      throw new BadRequestError('This template does not allow overriding arguments')
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(input.arguments)
    } catch {
      parsed = null
    }
    if (!Array.isArray(parsed) || parsed.some((a) => typeof a !== 'string')) {
      throw new BadRequestError('arguments must be a JSON array of strings')
    }
    checkTaskArguments(template, trusted, parsed as string[])
    args = input.arguments
  }
  const environment = jsonObject(input.environment, 'environment')
  const secret = jsonObject(input.secret, 'secret')
  checkTaskVariables(template, trusted, environment, secret)
  checkSurvey(surveyVars(template.survey_vars), environment, secret)

  let version: string | null = null
  let buildTaskId: number | null = null
  if (template.type === 'deploy') {
    if (!input.build_task_id) throw new BadRequestError('A deploy task needs build_task_id')
    const build = await db.kysely
      .selectFrom('task')
      .select(['id', 'status', 'template_id'])
      .where('id', '=', input.build_task_id)
      .where('project_id', '=', projectId)
      .executeTakeFirst()
    if (
      !build ||
      build.status !== 'success' ||
      (template.build_template_id !== null && build.template_id !== template.build_template_id)
    ) {
      throw new BadRequestError('build_task_id must be a successful task of the build template')
    }
    buildTaskId = build.id
  } else if (template.type === 'build') {
    const last = await db.kysely
      .selectFrom('task')
      .select('version')
      .where('template_id', '=', template.id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    version = last ? nextBuildVersion(template.start_version, last.version) : template.start_version
  }
  checkParams(input.params, template.app)
  const params = foldParams(input, template.app)
  checkTaskLimit(template, trusted, [
    ...(Array.isArray(params.limit) ? (params.limit as unknown[]) : []),
    ...(input.limit ?? '').split(','),
  ])

  const row = await insertTaskRow(db, {
    project_id: projectId,
    template_id: template.id,
    status: 'waiting',
    user_id: requester?.actor.id ?? null,
    build_task_id: buildTaskId,
    debug: input.debug ? 1 : 0,
    dry_run: input.dry_run ? 1 : 0,
    diff: input.diff ? 1 : 0,
    playbook: input.playbook || null,
    environment: input.environment?.trim() ? input.environment : null,
    arguments: args,
    hosts_limit: input.limit || null,
    git_branch: input.git_branch || null,
    commit_hash: input.commit_hash ? input.commit_hash.toLowerCase() : null,
    message: input.message ?? null,
    inventory_id: input.inventory_id ?? null,
    version,
    // Parameters sent are kept even when empty; none sent (and nothing folded in) is null.
    params: input.params || Object.keys(params).length ? JSON.stringify(params) : null,
    schedule_id: origin.scheduleId ?? null,
    integration_id: origin.integrationId ?? null,
  })
  await insertEvent(db.kysely, {
    projectId,
    userId: requester?.actor.id ?? null,
    integrationId: origin.integrationId ?? null,
    objectType: 'task',
    objectId: row.id,
    description: `Task ID ${row.id} queued for running`,
  })
  await queue.add(row, secret)
  return toTask(row)
}

export async function getTask(db: Db, projectId: number, id: number): Promise<Task> {
  const row = await findTaskRow(db.kysely, projectId, id)
  if (!row) throw new NotFoundError('Task')
  return toTask(row)
}

export function parseLimit(text: string | undefined, fallback = 200): number {
  if (text === undefined || text === '') return fallback
  const n = Number(text)
  if (!Number.isInteger(n) || n < 1) throw new BadRequestError('Invalid query parameter: limit')
  return Math.min(n, 200)
}

/** A page of the project's tasks (or a template's), newest first, with template details. */
export async function listTasks(
  db: Db,
  projectId: number,
  options: Omit<TaskPageQuery, 'projectId'>,
): Promise<TaskWithTemplate[]> {
  return withTemplates(db.kysely, await findTaskPage(db.kysely, { ...options, projectId }))
}

export async function assertTemplate(db: Db, projectId: number, templateId: number): Promise<void> {
  await assertInProject(db.kysely, 'template', projectId, templateId, 'Template')
}

/** The task's whole log, or one page of it when `offset` or `limit` is given. */
export async function taskOutput(
  db: Db,
  projectId: number,
  id: number,
  page: TaskOutputQuery = {},
): Promise<TaskOutput[]> {
  await getTask(db, projectId, id)
  if (page.offset === undefined && page.limit === undefined) {
    return readWholeOutput(db.kysely, id)
  }
  return readOutputPage(db.kysely, id, page.offset ?? 1, page.limit ?? DEFAULT_OUTPUT_PAGE)
}

/** Lines of a page when the caller names only where it starts. */
const DEFAULT_OUTPUT_PAGE = 1000

export async function taskOutputCount(
  db: Db,
  projectId: number,
  id: number,
): Promise<TaskOutputCount> {
  await getTask(db, projectId, id)
  return { count: await countOutputLines(db.kysely, id) }
}

export async function deleteTask(
  db: Db,
  queue: TaskQueue,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  const row = await findTaskRow(db.kysely, projectId, id)
  if (!row) throw new NotFoundError('Task')
  if (queue.isActive(id) || !isFinished(row.status)) {
    throw new BadRequestError('A task can not be deleted while it is active')
  }
  await db.kysely.transaction().execute(async (trx) => {
    await trx.deleteFrom('task_output').where('task_id', '=', id).execute()
    await trx
      .updateTable('task')
      .set({ build_task_id: null })
      .where('build_task_id', '=', id)
      .execute()
    await trx.deleteFrom('task').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'task',
      objectId: id,
      description: `Task ID ${id} deleted`,
    })
  })
}

function parseDay(text: string | undefined, what: string): string | null {
  if (text === undefined || text === '') return null
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const date = match ? new Date(`${text}T00:00:00.000Z`) : null
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text) {
    throw new BadRequestError(`Invalid ${what} date`)
  }
  return text
}

/** Tasks of a template per day (newest first), by status, with the mean duration in seconds. */
export async function templateStats(
  db: Db,
  projectId: number,
  templateId: number,
  query: { start?: string; end?: string; user_id?: string },
): Promise<StatsRow[]> {
  await assertTemplate(db, projectId, templateId)
  const start = parseDay(query.start, 'start')
  const end = parseDay(query.end, 'end')
  let q = db.kysely
    .selectFrom('task')
    .select(['created', 'status', 'start', 'end'])
    .where('project_id', '=', projectId)
    .where('template_id', '=', templateId)
  if (start) q = q.where('created', '>=', `${start}T00:00:00.000Z`)
  if (end) q = q.where('created', '<', `${end}T23:59:59.999Z`)
  if (query.user_id) {
    const userId = Number(query.user_id)
    if (!Number.isInteger(userId)) throw new BadRequestError('Invalid user_id')
    q = q.where('user_id', '=', userId)
  }
  const rows = await q.execute()
  const days = new Map<string, { counts: Record<string, number>; total: number; n: number }>()
  for (const row of rows) {
    const day = String(row.created).slice(0, 10)
    const entry = days.get(day) ?? { counts: {}, total: 0, n: 0 }
    entry.counts[row.status] = (entry.counts[row.status] ?? 0) + 1
    if (row.start && row.end) {
      entry.total += Math.max(0, (Date.parse(row.end) - Date.parse(row.start)) / 1000)
      entry.n += 1
    }
    days.set(day, entry)
  }
  return [...days.entries()]
    .sort((a, b) => (a[0] < b[0] ? 1 : -1))
    .map(([date, e]) => ({
      date,
      count_by_status: e.counts,
      avg_duration: e.n ? Math.round(e.total / e.n) : 0,
    }))
}
