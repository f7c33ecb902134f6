import { z } from 'zod'
import { MAX_NAME_LENGTH, typeError } from '../common/fields.js'

/*
 * Project backup file. Entities refer to each other by name, never by id, and secrets are
 * never exported. Readers are lenient (unknown fields are ignored, missing lists are empty)
 * so files written by compatible servers restore too.
 */

const name = (label: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .min(1, `${label} can not be empty`)
    .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters`)
const optionalText = z.string().nullish()
const list = <T extends z.ZodType>(item: T) =>
  z
    .array(item)
    .nullish()
    .transform((v) => v ?? [])

export const BackupMeta = z.object({
  name: name('meta.name'),
  alert: z.boolean().nullish(),
  alert_chat: optionalText,
  max_parallel_tasks: z.number().int().min(0).nullish(),
  type: z.enum(['', 'premium']).nullish(),
})

export const BackupKey = z.object({ name: name('key name'), type: z.string().max(64) })
export const BackupEnvironment = z.object({
  name: name('environment name'),
  password: optionalText,
  json: optionalText,
  env: optionalText,
})
export const BackupView = z.object({
  title: name('view title'),
  position: z.number().int().nullish(),
})
export const BackupRepository = z.object({
  name: name('repository name'),
  git_url: z.string(),
  git_branch: optionalText,
  ssh_key: optionalText,
})
export const BackupInventory = z.object({
  name: name('inventory name'),
  inventory: optionalText,
  type: z.string().max(64),
  ssh_key: optionalText,
  become_key: optionalText,
})
export const BackupSurveyVar = z.object({
  name: z.string(),
  title: z.string(),
  required: z.boolean().nullish(),
  type: z.string().nullish(),
  description: optionalText,
  values: z
    .array(z.object({ name: z.string(), value: z.string() }))
    .nullish()
    .transform((v) => v ?? []),
})
export const BackupVault = z.object({
  name: optionalText,
  type: z.string().nullish(),
  script: optionalText,
  vault_key: optionalText,
})
export const BackupTemplate = z.object({
  name: name('template name'),
  playbook: optionalText,
  arguments: optionalText,
  allow_override_args_in_task: z.boolean().nullish(),
  description: optionalText,
  type: z.string().nullish(),
  start_version: optionalText,
  autorun: z.boolean().nullish(),
  git_branch: optionalText,
  survey_vars: list(BackupSurveyVar),
  suppress_success_alerts: z.boolean().nullish(),
  app: z.string().nullish(),
  task_params: z.unknown().optional(),
  inventory: optionalText,
  repository: optionalText,
  environment: optionalText,
  build_template: optionalText,
  view: optionalText,
  vaults: list(BackupVault),
  cron: optionalText,
})
export const BackupMatcher = z.object({
  name: z.string(),
  match_type: z.string(),
  method: z.string(),
  body_data_type: z.string().nullish(),
  key: optionalText,
  value: z.string(),
})
export const BackupExtractValue = z.object({
  name: z.string(),
  value_source: z.string(),
  body_data_type: z.string().nullish(),
  key: optionalText,
  variable: optionalText,
})
export const BackupIntegration = z.object({
  name: name('integration name'),
  auth_method: z.string().nullish(),
  auth_header: optionalText,
  searchable: z.boolean().nullish(),
  task_params: z.unknown().optional(),
  template: z.string(),
  auth_secret: optionalText,
  aliases: list(z.string().max(64)),
  matchers: list(BackupMatcher),
  extract_values: list(BackupExtractValue),
})
export const BackupSchedule = z.object({
  name: z.string().nullish(),
  cron_format: z.string(),
  active: z.boolean().nullish(),
  template: z.string(),
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
  integration_aliases: list(z.string().max(64)),
  schedules: list(BackupSchedule),
})
export type ProjectBackup = z.output<typeof ProjectBackup>
export type ProjectBackupInput = z.input<typeof ProjectBackup>
