import { z } from 'zod'
import { Id, MAX_NAME_LENGTH, typeError } from '../common/fields.js'

/*
 * Task statuses and their transitions:
 *
 *   waiting ──► starting ──► running ──► success | error
 *      │            │          │  ▲
 *      │            │          ▼  │ (confirmed)
 *      │            │   waiting_confirmation ──► rejected ──► error
 *      ▼            ▼          ▼
 *   stopping ───────────────► stopped        (force stop: any unfinished → stopped)
 */
export const TASK_STATUSES = [
  'waiting',
  'starting',
  'waiting_confirmation',
  'confirmed',
  'rejected',
  'running',
  'stopping',
  'stopped',
  'success',
  'error',
] as const
export const TaskStatus = z.enum(TASK_STATUSES)
export type TaskStatus = z.infer<typeof TaskStatus>

export const FINISHED_STATUSES: readonly TaskStatus[] = ['success', 'error', 'stopped']

export function isFinished(status: string): boolean {
  return (FINISHED_STATUSES as readonly string[]).includes(status)
}

export const AnsibleParams = z.object({
  debug: z.boolean().optional(),
  debug_level: z.number().int().min(1).max(6).optional(),
  dry_run: z.boolean().optional(),
  diff: z.boolean().optional(),
  limit: z.array(z.string().max(MAX_NAME_LENGTH)).max(100).optional(),
  tags: z.array(z.string().max(MAX_NAME_LENGTH)).max(100).optional(),
  skip_tags: z.array(z.string().max(MAX_NAME_LENGTH)).max(100).optional(),
})
export type AnsibleParams = z.infer<typeof AnsibleParams>

export const TerraformParams = z.object({
  plan: z.boolean().optional(),
  destroy: z.boolean().optional(),
  auto_approve: z.boolean().optional(),
  upgrade: z.boolean().optional(),
  reconfigure: z.boolean().optional(),
})
export type TerraformParams = z.infer<typeof TerraformParams>

/**
 * Where a task's start time went, in whole milliseconds, as measured by the process that
 * started it. The phases follow each other and add up to at most `total_ms` (the rest is
 * small bookkeeping between them); a phase that did not apply is absent.
 */
export const TaskStartTimings = z.object({
  /** Created → claimed by a server process or a runner (waiting in the queue). */
  queued_ms: z.number().int().nonnegative(),
  /** Claim → job ready: reading the template and its resources, decrypting keys and secrets. */
  building_job_ms: z.number().int().nonnegative().optional(),
  /** Making the task's private folder and writing its files (keys, inventory, variables). */
  writing_files_ms: z.number().int().nonnegative().optional(),
  /** Cloning or updating the repository, checking out the commit, reading its head. */
  preparing_repository_ms: z.number().int().nonnegative().optional(),
  /** Starting the app's process until the system reports it running. */
  spawning_ms: z.number().int().nonnegative().optional(),
  /** A runner's task: assigned → the runner reported it running (its own phases inside). */
  runner_ms: z.number().int().nonnegative().optional(),
  /** Created → the app's process running (a runner's task: → reported running). */
  total_ms: z.number().int().nonnegative(),
})
export type TaskStartTimings = z.infer<typeof TaskStartTimings>

export const Task = z.object({
  id: Id,
  template_id: Id,
  project_id: Id,
  status: z.string(),
  debug: z.boolean(),
  dry_run: z.boolean(),
  diff: z.boolean(),
  playbook: z.string(),
  environment: z.string(),
  /** Never stored: always "{}". */
  secret: z.string(),
  limit: z.string(),
  arguments: z.string().nullable(),
  git_branch: z.string().nullable(),
  message: z.string(),
  user_id: z.number().nullable(),
  integration_id: z.number().nullable(),
  schedule_id: z.number().nullable(),
  created: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  commit_hash: z.string().nullable(),
  commit_message: z.string(),
  build_task_id: z.number().nullable(),
  version: z.string().nullable(),
  inventory_id: z.number().nullable(),
  params: z.record(z.string(), z.unknown()).nullable(),
  /** Where the task's start time went; null until it started (and for older tasks). */
  start_timings: TaskStartTimings.nullable().optional(),
})
export type Task = z.infer<typeof Task>

/** Tasks in lists carry their template's name, type and app, and who started them. */
export const TaskWithTemplate = Task.extend({
  tpl_playbook: z.string(),
  tpl_alias: z.string(),
  tpl_type: z.string(),
  tpl_app: z.string(),
  user_name: z.string().nullable(),
  build_task: Task.nullable(),
})
export type TaskWithTemplate = z.infer<typeof TaskWithTemplate>

/** Control characters (C0, DEL and C1): never part of a path or a branch name. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

/**
 * Why a branch name given with a task is not a usable git branch, or null when it is. The
 * rules are git's own for ref names (`git check-ref-format`), and the name may not start
 * with `-`, so that it can never be read as an option of a git command.
 */
export function gitBranchProblem(name: string): string | null {
  if (name.startsWith('-')) return "git_branch can not start with '-'"
  if (CONTROL.test(name) || /\s/.test(name)) {
    return 'git_branch can not contain spaces or control characters'
  }
  if (/[~^:?*[\\]/.test(name)) {
    return 'git_branch can not contain any of the characters ~ ^ : ? * [ \\'
  }
  if (name.includes('..')) return "git_branch can not contain '..'"
  if (name.includes('@{') || name === '@') return "git_branch can not be '@' or contain '@{'"
  const parts = name.split('/')
  if (parts.some((part) => part === '')) {
    return "git_branch can not start or end with '/' or contain '//'"
  }
  if (parts.some((part) => part.startsWith('.') || part.endsWith('.lock'))) {
    return "git_branch parts can not start with '.' or end with '.lock'"
  }
  if (name.endsWith('.')) return "git_branch can not end with '.'"
  return null
}

/**
 * Why a playbook given with a task is not acceptable whoever sends it, or null. A leading
 * `-` would make the program read it as an option instead of a file.
 */
export function playbookOverrideProblem(playbook: string): string | null {
  if (playbook.startsWith('-')) return "playbook can not start with '-'"
  if (CONTROL.test(playbook)) return 'playbook can not contain control characters'
  return null
}

/** A zod check from a function answering the problem or null. */
const rule =
  (problem: (value: string) => string | null) =>
  (value: string | null | undefined, ctx: z.RefinementCtx) => {
    const message = value ? problem(value) : null
    if (message) ctx.addIssue({ code: 'custom', message })
  }

const jsonText = (label: string) =>
  z.string({ error: typeError(label, 'a JSON string') }).max(1024 * 1024, `${label} is too long`)

export const CreateTaskBody = z.object({
  template_id: z
    .number({ error: typeError('template_id', 'a number') })
    .int()
    .positive(),
  message: z.string().max(4096, 'message is too long').nullish(),
  /** Another branch of the template's repository; see `gitBranchProblem`. */
  git_branch: z.string().trim().max(MAX_NAME_LENGTH).nullish().superRefine(rule(gitBranchProblem)),
  /** A commit to check out after the clone or update, instead of the branch head. */
  commit_hash: z
    .string({ error: typeError('commit_hash', 'a string') })
    .trim()
    .regex(/^([0-9a-fA-F]{4,64})?$/, 'commit_hash must be a hexadecimal commit hash')
    .nullish(),
  /** JSON object text of extra variables (survey values). */
  environment: jsonText('environment').nullish(),
  /** JSON object text of secret survey values; used for this run only, never stored. */
  secret: jsonText('secret').nullish(),
  /** JSON array text of CLI args; only when the template allows overriding them. */
  arguments: jsonText('arguments').nullish(),
  limit: z.string().max(4096).nullish(),
  playbook: z.string().trim().max(1024).nullish().superRefine(rule(playbookOverrideProblem)),
  inventory_id: z.number().int().positive().nullish(),
  build_task_id: z.number().int().positive().nullish(),
  params: z.record(z.string(), z.unknown()).nullish(),
  debug: z.boolean().nullish(),
  dry_run: z.boolean().nullish(),
  diff: z.boolean().nullish(),
})
export type CreateTaskBody = z.input<typeof CreateTaskBody>

export const StopTaskBody = z.object({
  /** Missing means a graceful stop, as in the compatible API. */
  force: z
    .boolean({ error: typeError('force', 'true or false') })
    .nullish()
    .transform((v) => v ?? false),
})

export const TaskOutput = z.object({
  task_id: Id,
  time: z.string(),
  output: z.string(),
  /** The line's 1-based number in the task's log; only in paged answers (`offset`/`limit`). */
  line: z.number().int().positive().optional(),
})
export type TaskOutput = z.infer<typeof TaskOutput>

/** Most lines one page of a task's output holds. */
export const MAX_OUTPUT_PAGE = 10_000
/** Highest line number a page may start at (line numbers are 32-bit on every dialect). */
export const MAX_OUTPUT_LINE = 2_147_483_647

/** A whole number in a query parameter, in bounds, with a message naming the parameter. */
const QueryCount = (label: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${label} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine(
      (value) => value >= min && value <= max,
      `${label} must be a whole number from ${min} to ${max}`,
    )

/**
 * Paging of a task's output. Without either parameter the whole log is answered, as the
 * compatible API does; with one or both, the lines numbered `offset` (default 1) to
 * `offset + limit - 1` (limit default 1000), each with its `line` number. A page past the
 * end is empty.
 */
export const TaskOutputQuery = z.object({
  offset: QueryCount('offset', 1, MAX_OUTPUT_LINE).optional(),
  limit: QueryCount('limit', 1, MAX_OUTPUT_PAGE).optional(),
})
export type TaskOutputQuery = z.infer<typeof TaskOutputQuery>

/** How long a task's log is: `count` lines, numbered 1 to `count`. */
export const TaskOutputCount = z.object({ count: z.number().int().nonnegative() })
export type TaskOutputCount = z.infer<typeof TaskOutputCount>

export const StatsRow = z.object({
  date: z.string(),
  count_by_status: z.record(z.string(), z.number().int()),
  avg_duration: z.number().int(),
})
export type StatsRow = z.infer<typeof StatsRow>

export const TASK_LOCATIONS = ['queue', 'running', 'runner'] as const

/** A task of the server-wide active list (admins). */
export const ActiveTask = z.object({
  task_id: Id,
  project_id: Id,
  username: z.string().optional(),
  runner_id: z.number().int().optional(),
  status: z.string(),
  location: z.string(),
  /** Why a queued task has not started yet (no runner with its tag, limits…). */
  queue_reason: z.string().optional(),
})
export type ActiveTask = z.infer<typeof ActiveTask>
