import { z } from 'zod'
import { Id, MAX_NAME_LENGTH, Timestamp, typeError } from '../common/fields.js'

/** A tag: letters, digits, `_`, `.`, `-`; a runner's `tag` field lists several with commas. */
export const RUNNER_TAG_PATTERN = /^[A-Za-z0-9_.-]+$/

/** Splits a comma-separated tag list into its tags (trimmed, no empties, no duplicates). */
export function parseRunnerTags(text: string | null | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== ''),
    ),
  ]
}

/** Tags as stored and sent: comma-separated, no spaces. */
export const RunnerTagList = z
  .string({ error: typeError('tag', 'a string') })
  .max(MAX_NAME_LENGTH, `tag must be at most ${MAX_NAME_LENGTH} characters`)
  .transform((text) => parseRunnerTags(text))
  .refine((tags) => tags.every((t) => RUNNER_TAG_PATTERN.test(t)), {
    message: 'tags may hold only letters, digits, _, . and -, separated by commas',
  })
  .transform((tags) => tags.join(','))

/** A task a runner is working on, for the console's running-tasks column. */
export const RunnerTask = z.object({ task_id: Id, project_id: Id, status: z.string() })
export type RunnerTask = z.infer<typeof RunnerTask>

export const Runner = z.object({
  id: Id,
  /** null: a global runner (administrators'). */
  project_id: Id.nullable(),
  name: z.string(),
  webhook: z.string(),
  /** 0 = unlimited. */
  max_parallel_tasks: z.number().int(),
  active: z.boolean(),
  /** Comma-separated tags; a template with `runner_tag` runs only on runners carrying it. */
  tag: z.string(),
  /** Last time the runner was heard from; null when never. */
  touched: Timestamp.nullable(),
  /** Heard from within the server's runner timeout. */
  online: z.boolean(),
  running_tasks: z.array(RunnerTask),
})
export type Runner = z.infer<typeof Runner>

/** The answer to a creation: the token and the private key, shown this once only. */
export const CreatedRunner = Runner.extend({ token: z.string(), private_key: z.string() })
export type CreatedRunner = z.infer<typeof CreatedRunner>

const runnerFields = {
  name: z
    .string({ error: typeError('name', 'a string') })
    .trim()
    .min(1, 'Name is required')
    .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`),
  webhook: z
    .string({ error: typeError('webhook', 'a string') })
    .trim()
    .max(2048, 'webhook is too long')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), {
      message: 'webhook must be an http or https URL',
    })
    .nullish()
    .transform((v) => v ?? ''),
  max_parallel_tasks: z
    .number({ error: typeError('max_parallel_tasks', 'a number') })
    .int('max_parallel_tasks must be a whole number')
    .min(0, 'max_parallel_tasks can not be negative')
    .max(10_000, 'max_parallel_tasks must be at most 10000')
    .nullish()
    .transform((v) => v ?? 0),
  active: z
    .boolean({ error: typeError('active', 'true or false') })
    .nullish()
    .transform((v) => v ?? true),
  tag: RunnerTagList.nullish().transform((v) => v ?? ''),
  project_id: z
    .number({ error: typeError('project_id', 'a number') })
    .int()
    .nullish(),
  /** Checked against the URL on update; other read-only fields sent back are ignored. */
  id: z.unknown().optional(),
}

export const CreateRunnerBody = z.object(runnerFields)
export type CreateRunnerBody = z.input<typeof CreateRunnerBody>
export const UpdateRunnerBody = CreateRunnerBody
export type UpdateRunnerBody = z.input<typeof UpdateRunnerBody>

export const SetRunnerActiveBody = z
  .object({ active: z.unknown().optional() }, { error: 'Invalid request body' })
  // Checked on the whole body, so the answer is the compatible text without a field path.
  .refine((body) => typeof body.active === 'boolean', { message: 'Invalid request body' })
  .transform((body) => ({ active: body.active as boolean }))
export type SetRunnerActiveBody = z.infer<typeof SetRunnerActiveBody>
