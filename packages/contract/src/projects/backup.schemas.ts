import { z } from 'zod'
import { MAX_NAME_LENGTH, typeError } from '../common/fields.js'
import { EnvironmentImage } from '../resources/environments.schemas.js'
import { MAX_TEXT_BYTES, utf8Length } from '../resources/refs.schemas.js'
import { MAX_TIMEZONE_LENGTH, MISSED_RUN_POLICIES } from '../schedules/schedules.schemas.js'
import { Project } from './projects.schemas.js'

/*
 * Project backup file. Entities refer to each other by name, never by id, and secrets are
 * never exported. Readers are lenient (unknown fields are ignored, missing lists are empty)
 * so files written by compatible servers restore too. Every value is bounded by the size
 * of the column it is restored into, so an over-long one is refused with the field's path.
 */

const name = (label: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .min(1, `${label} can not be empty`)
    .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters`)
/** A value of a varchar column: at most `max` characters. */
const short = (max = MAX_NAME_LENGTH) => z.string().max(max, `must be at most ${max} characters`)
/** A value of a TEXT column, bounded like the other routes' long text. */
const long = () =>
  z
    .string()
    .refine(
      (text) => utf8Length(text) <= MAX_TEXT_BYTES,
      `is too long (at most ${MAX_TEXT_BYTES} bytes)`,
    )
const optionalText = long().nullish()
/** A varchar(255) value, or a name of another entity of the file. */
const optionalName = short().nullish()
const optionalShort = short(64).nullish()
/** Stored as JSON text. */
const jsonText = z
  .unknown()
  .optional()
  .refine(
    (value) =>
      value === undefined || value === null || utf8Length(JSON.stringify(value)) <= MAX_TEXT_BYTES,
    `is too long (at most ${MAX_TEXT_BYTES} bytes as JSON)`,
  )
/** Integer columns, bounded like the project routes. */
const smallInt = z.number().int().min(0).max(1_000_000, 'must be at most 1000000')
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? [])

export const BackupMeta = z.object({
  name: name('meta.name'),
  alert: z.boolean().nullish(),
  alert_chat: optionalName,
  max_parallel_tasks: smallInt.nullish(),
  task_retention_days: smallInt.nullish(),
  max_tasks_per_template: smallInt.nullish(),
  type: z.enum(['', 'premium']).nullish(),
})

export const BackupKey = z.object({ name: name('key name'), type: short(64) })
export const BackupEnvironment = z.object({
  name: name('environment name'),
  /** Never exported; one in a file written elsewhere is restored, encrypted. */
  password: z
    .string({ error: typeError('environment password', 'a string') })
    .max(MAX_NAME_LENGTH, `environment password must be at most ${MAX_NAME_LENGTH} characters`)
    .nullish(),
  json: optionalText,
  env: optionalText,
  image: EnvironmentImage,
})
export const BackupView = z.object({
  title: name('view title'),
  position: z
    .number()
    .int()
    .min(-1_000_000, 'must be at least -1000000')
    .max(1_000_000, 'must be at most 1000000')
    .nullish(),
})
export const BackupRepository = z.object({
  name: name('repository name'),
  // Like the repository routes: trimmed, at most 2048 characters.
  git_url: z
    .string({ error: typeError('git_url', 'a string') })
    .trim()
    .max(2048, 'repository url is too long'),
  git_branch: optionalName,
  ssh_key: optionalName,
})
export const BackupInventory = z.object({
  name: name('inventory name'),
  inventory: optionalText,
  // Checked by the restore, which reports a type it does not know instead of failing.
  type: short(64).nullish(),
  ssh_key: optionalName,
  become_key: optionalName,
  /** Flagman's own: the repository holding a file inventory, when not the template's. */
  repository: optionalName,
  /**
   * Flagman's own: the template owning a Terraform/OpenTofu workspace. Compatible files do
   * not say; their workspaces go to the terraform/tofu template that names them.
   */
  template: optionalName,
})
/** Survey variables are stored as JSON text; their fields are bounded like the template's. */
export const BackupSurveyVar = z.object({
  name: short(),
  title: short(),
  required: z.boolean().nullish(),
  type: optionalShort,
  description: short(4096).nullish(),
  values: list(z.object({ name: short(), value: short(4096) })),
})
export const BackupVault = z.object({
  name: optionalName,
  type: optionalShort,
  script: optionalText,
  vault_key: optionalName,
})
export const BackupTemplate = z.object({
  name: name('template name'),
  playbook: optionalText,
  arguments: optionalText,
  allow_override_args_in_task: z.boolean().nullish(),
  description: optionalText,
  type: optionalShort,
  start_version: optionalName,
  autorun: z.boolean().nullish(),
  git_branch: optionalName,
  survey_vars: list(BackupSurveyVar),
  suppress_success_alerts: z.boolean().nullish(),
  app: optionalShort,
  task_params: jsonText,
  /** Newer compatible files: a field of its own; Flagman keeps it in `task_params`. */
  allow_override_branch_in_task: z.boolean().nullish(),
  runner_tag: z
    .string()
    .trim()
    .max(255)
    .regex(/^[A-Za-z0-9_.-]*$/, 'runner_tag may hold only letters, digits, _, . and -')
    .nullish(),
  inventory: optionalName,
  repository: optionalName,
  environment: optionalName,
  build_template: optionalName,
  view: optionalName,
  vaults: list(BackupVault),
  /** Files from before template vaults: the key of the one (default, password) vault. */
  vault_key: optionalName,
  cron: optionalName,
})
// Kinds of matchers and values are checked by the restore, which reports those it can not map.
export const BackupMatcher = z.object({
  name: short(),
  match_type: optionalShort,
  method: optionalShort,
  body_data_type: optionalShort,
  key: optionalName,
  value: long().nullish(),
})
export const BackupExtractValue = z.object({
  name: short(),
  value_source: optionalShort,
  body_data_type: optionalShort,
  key: optionalName,
  variable: optionalName,
})
export const BackupIntegration = z.object({
  name: name('integration name'),
  auth_method: optionalShort,
  auth_header: optionalName,
  searchable: z.boolean().nullish(),
  /** Flagman's own: skip deliveries while a task it started is still waiting. */
  debounce: z.boolean().nullish(),
  task_params: jsonText,
  template: optionalName,
  auth_secret: optionalName,
  aliases: list(short(64)),
  matchers: list(BackupMatcher),
  extract_values: list(BackupExtractValue),
})
export const BackupSchedule = z.object({
  name: optionalName,
  // Empty in the all-empty entry compatible servers write for a schedule whose template is
  // gone; the restore reports such entries and leaves them out.
  cron_format: optionalName,
  active: z.boolean().nullish(),
  template: optionalName,
  /** Newer compatible servers: `""` (cron) or `run_at` (one-off, at `run_at`). */
  type: optionalShort,
  run_at: optionalName,
  /** Absent in backups made before schedules had their own time zone: the server default. */
  timezone: short(MAX_TIMEZONE_LENGTH).nullish(),
  /** Absent in older backups: `skip`. */
  missed_run_policy: z.enum(MISSED_RUN_POLICIES).nullish(),
})

export const ProjectBackup = z.object({
  meta: BackupMeta,
  keys: list(BackupKey),
  environments: list(BackupEnvironment),
  views: list(BackupView),
  repositories: list(BackupRepository),
  inventories: list(BackupInventory),
  templates: list(BackupTemplate),
  integrations: list(BackupIntegration),
  integration_aliases: list(short(64)),
  schedules: list(BackupSchedule),
})
export type ProjectBackup = z.output<typeof ProjectBackup>
export type ProjectBackupInput = z.input<typeof ProjectBackup>

/** Something of a backup file the restore could not map, and what it did with it. */
export const RestoreReportItem = z.object({
  /** Where it is in the file, by names where there are names: `templates[Deploy].cron`. */
  path: z.string(),
  reason: z.string(),
})
export type RestoreReportItem = z.infer<typeof RestoreReportItem>
export const RestoreReport = z.array(RestoreReportItem)
export type RestoreReport = z.infer<typeof RestoreReport>

/** The restored project, with what of the file it could not map (empty when nothing). */
export const RestoredProject = Project.extend({ restore_report: RestoreReport })
export type RestoredProject = z.infer<typeof RestoredProject>
