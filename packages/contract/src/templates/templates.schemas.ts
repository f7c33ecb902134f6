import { z } from 'zod'
import { Id, InputId, MAX_NAME_LENGTH, RequiredName, typeError } from '../common/fields.js'
import { isSafeInventoryPath } from '../resources/inventories.schemas.js'
import { isBackendFilename } from '../resources/terraform.schemas.js'
import { longText, MAX_TEXT_BYTES, utf8Length } from '../resources/refs.schemas.js'

export const TEMPLATE_TYPES = ['', 'build', 'deploy'] as const
export const TemplateType = z.enum(TEMPLATE_TYPES, { error: "type must be '', build or deploy" })
export type TemplateType = z.infer<typeof TemplateType>

/** Which template fields each app shows, and which of those are required. */
export interface AppFieldConfig {
  playbook: 'required' | 'optional' | 'hidden'
  inventory: 'required' | 'optional' | 'hidden'
  repository: 'required' | 'optional'
  environment: 'required' | 'optional'
  vaults: boolean
  /** How the playbook field is labelled for this app. */
  playbookKind: 'playbook' | 'script' | 'subdirectory' | 'program'
}

const SCRIPT_APP: AppFieldConfig = {
  playbook: 'required',
  inventory: 'hidden',
  repository: 'required',
  environment: 'optional',
  vaults: false,
  playbookKind: 'script',
}

export const APP_FIELDS: Record<string, AppFieldConfig> = {
  ansible: {
    playbook: 'required',
    inventory: 'required',
    repository: 'required',
    environment: 'optional',
    vaults: true,
    playbookKind: 'playbook',
  },
  terraform: {
    playbook: 'optional',
    inventory: 'optional',
    repository: 'required',
    environment: 'optional',
    vaults: false,
    playbookKind: 'subdirectory',
  },
  tofu: {
    playbook: 'optional',
    inventory: 'optional',
    repository: 'required',
    environment: 'optional',
    vaults: false,
    playbookKind: 'subdirectory',
  },
  pulumi: {
    playbook: 'optional',
    inventory: 'hidden',
    repository: 'required',
    environment: 'optional',
    vaults: false,
    playbookKind: 'program',
  },
  bash: SCRIPT_APP,
  python: SCRIPT_APP,
  powershell: SCRIPT_APP,
}

/** Field rules of an app; apps added by administrators behave like script apps. */
export function appFields(app: string): AppFieldConfig {
  // Own keys only: an app may be named like an Object property ("constructor").
  return (Object.hasOwn(APP_FIELDS, app) ? APP_FIELDS[app] : undefined) ?? SCRIPT_APP
}

export const SURVEY_VAR_TYPES = ['', 'int', 'enum', 'secret'] as const
export const SurveyVarType = z.enum(SURVEY_VAR_TYPES, {
  error: "survey variable type must be '', int, enum or secret",
})

export const SurveyVar = z.object({
  name: z
    .string({ error: typeError('survey variable name', 'a string') })
    .trim()
    .min(1, 'survey variable name can not be empty')
    .max(MAX_NAME_LENGTH),
  title: z
    .string({ error: typeError('survey variable title', 'a string') })
    .trim()
    .min(1, 'survey variable title can not be empty')
    .max(MAX_NAME_LENGTH),
  description: z
    .string()
    .max(4096)
    .nullish()
    .transform((v) => v ?? ''),
  type: SurveyVarType.nullish().transform((v) => v ?? ''),
  required: z
    .boolean()
    .nullish()
    .transform((v) => v ?? false),
  values: z
    .array(
      z.object({
        name: z.string().trim().max(MAX_NAME_LENGTH),
        value: z.string().max(4096),
      }),
    )
    .max(1000)
    .nullish()
    .transform((v) => v ?? []),
})
export type SurveyVar = z.output<typeof SurveyVar>

/** Enum rules of the spec, shared by the form and the server. Returns the message or null. */
export function surveyVarProblem(variable: SurveyVar): string | null {
  if (variable.type !== 'enum') return null
  if (variable.values.length === 0) return 'Enumeration must have values.'
  if (variable.values.some((v) => v.name === '')) return 'Value name cannot be empty.'
  const names = new Set(variable.values.map((v) => v.name))
  if (names.size !== variable.values.length) return 'Enumeration values must have unique names.'
  return null
}

/** The key of a template's `task_params` that lets tasks pick another branch. */
export const BRANCH_OVERRIDE_PARAM = 'allow_override_branch_in_task'

export const VAULT_TYPES = ['password', 'script'] as const

export const TemplateVault = z.object({
  id: z.number().int().nullish(),
  /** Empty or missing: the default vault. Stored lower-cased and trimmed. */
  name: z
    .string()
    .max(MAX_NAME_LENGTH)
    .nullish()
    .transform((v) => (v ?? '').trim().toLowerCase() || null),
  type: z.enum(VAULT_TYPES, {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? 'vault type is required'
        : 'vault type must be password or script',
  }),
  vault_key_id: InputId('vault_key_id').nullish(),
  script: z
    .string()
    .max(1024)
    .nullish()
    .transform((v) => (v ?? '').trim() || null),
})
export type TemplateVaultInput = z.output<typeof TemplateVault>

/** A vault client script must be named `<something>-client` (an extension may follow). */
export function isVaultClientScript(script: string): boolean {
  return /-client(\.[A-Za-z0-9]+)?$/.test(script)
}

/**
 * Vault rules of the spec; returns the message or null. The unnamed vault is Ansible's
 * "default" vault id, so it also clashes with a vault explicitly named "default".
 */
export function vaultsProblem(vaults: readonly TemplateVaultInput[]): string | null {
  const names = new Set<string>()
  let unnamed = 0
  for (const vault of vaults) {
    if (vault.name === null && ++unnamed > 1) return 'Only one vault can be unnamed'
    const label = vault.name ?? 'default'
    if (names.has(label)) return `Vault names must be unique: ${label}`
    names.add(label)
    if (vault.type === 'password' && !vault.vault_key_id) {
      return `The password vault ${label} needs a key`
    }
    if (vault.type === 'script') {
      if (!vault.script) return `The script vault ${label} needs a script`
      if (!isVaultClientScript(vault.script)) {
        return `The script of vault ${label} must end with -client (for example vault-client.py)`
      }
      // The script runs on the server, so it must come from the repository.
      if (!isSafeInventoryPath(vault.script)) {
        return `The script of vault ${label} must be a path inside the repository`
      }
    }
  }
  return null
}

export const Vault = z.object({
  id: Id,
  project_id: Id,
  template_id: Id,
  name: z.string().nullable(),
  type: z.string(),
  vault_key_id: Id.nullable(),
  script: z.string().nullable(),
})

/** A task as template lists show it (the newest one). */
export const TemplateLastTask = z.object({
  id: Id,
  template_id: Id,
  project_id: Id,
  status: z.string(),
  message: z.string(),
  commit_hash: z.string().nullable(),
  commit_message: z.string(),
  version: z.string().nullable(),
  user_id: z.number().nullable(),
  user_name: z.string().nullable(),
  created: z.string(),
  start: z.string().nullable(),
  end: z.string().nullable(),
  tpl_alias: z.string(),
  tpl_type: z.string(),
  tpl_app: z.string(),
  tpl_playbook: z.string(),
})

export const Template = z.object({
  id: Id,
  project_id: Id,
  name: z.string(),
  description: z.string().nullable(),
  type: z.string(),
  app: z.string(),
  playbook: z.string(),
  arguments: z.string().nullable(),
  allow_override_args_in_task: z.boolean(),
  inventory_id: Id.nullable(),
  repository_id: Id.nullable(),
  environment_id: Id.nullable(),
  view_id: Id.nullable(),
  build_template_id: Id.nullable(),
  start_version: z.string().nullable(),
  autorun: z.boolean(),
  git_branch: z.string().nullable(),
  survey_vars: z.array(SurveyVar).nullable(),
  vaults: z.array(Vault),
  suppress_success_alerts: z.boolean(),
  task_params: z.record(z.string(), z.unknown()).nullable(),
  /** Tasks of this template run only on a runner carrying this tag; null: anywhere. */
  runner_tag: z.string().nullable(),
  /** Number of stored tasks. */
  tasks: z.number().int(),
  last_task: TemplateLastTask.nullable(),
})
export type Template = z.infer<typeof Template>

const optionalId = (label: string) => InputId(label).nullish()

/** Values stored as JSON text must fit a TEXT column on every database. */
function fitsAsJson(value: unknown): boolean {
  return (
    value === null || value === undefined || utf8Length(JSON.stringify(value)) <= MAX_TEXT_BYTES
  )
}
const tooLongAsJson = (label: string) => `${label} are too long (at most ${MAX_TEXT_BYTES} bytes)`

const templateFields = {
  name: RequiredName('template name'),
  project_id: z
    .number({ error: typeError('project_id', 'a number') })
    .int()
    .optional(),
  description: longText('description').nullish(),
  type: TemplateType.nullish().transform((v) => v ?? ''),
  app: z
    .string({ error: typeError('app', 'a string') })
    .trim()
    .max(32)
    .nullish()
    .transform((v) => v || 'ansible'),
  playbook: z
    .string({ error: typeError('playbook', 'a string') })
    .trim()
    .max(1024, 'playbook is too long')
    .nullish()
    .transform((v) => v ?? ''),
  arguments: longText('arguments').nullish(),
  allow_override_args_in_task: z.boolean().nullish(),
  inventory_id: optionalId('inventory_id'),
  repository_id: optionalId('repository_id'),
  environment_id: optionalId('environment_id'),
  view_id: optionalId('view_id'),
  build_template_id: optionalId('build_template_id'),
  start_version: z.string().trim().max(MAX_NAME_LENGTH).nullish(),
  autorun: z.boolean().nullish(),
  git_branch: z.string().trim().max(MAX_NAME_LENGTH).nullish(),
  survey_vars: z
    .array(SurveyVar)
    .max(100)
    .nullish()
    .refine(fitsAsJson, tooLongAsJson('survey variables')),
  vaults: z.array(TemplateVault).max(50).nullish(),
  suppress_success_alerts: z.boolean().nullish(),
  task_params: z
    .record(z.string(), z.unknown())
    .nullish()
    .refine(fitsAsJson, tooLongAsJson('task parameters'))
    .refine(
      (v) =>
        v?.backend_filename === undefined ||
        v.backend_filename === null ||
        v.backend_filename === '' ||
        (typeof v.backend_filename === 'string' && isBackendFilename(v.backend_filename)),
      {
        message:
          'backend_filename must be a file name in the module directory ending in .tf or .tf.json',
      },
    )
    .refine((v) => v?.override_backend === undefined || typeof v.override_backend === 'boolean', {
      message: 'override_backend must be true or false',
    }),
  runner_tag: z
    .string({ error: typeError('runner_tag', 'a string') })
    .trim()
    .max(MAX_NAME_LENGTH, `runner_tag must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((v) => v === '' || /^[A-Za-z0-9_.-]+$/.test(v), {
      message: 'runner_tag may hold only letters, digits, _, . and -',
    })
    .nullish()
    .transform((v) => v || null),
}

export const CreateTemplateBody = z.object(templateFields)
export type CreateTemplateBody = z.input<typeof CreateTemplateBody>

export const UpdateTemplateBody = z.object({
  ...templateFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateTemplateBody = z.input<typeof UpdateTemplateBody>

export const TEMPLATE_SORT_COLUMNS = [
  'name',
  'playbook',
  'inventory',
  'environment',
  'repository',
] as const

/** Most templates one page of the list may hold. */
export const MAX_TEMPLATE_PAGE = 1000

const TemplateListCount = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${name} must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be a whole number from ${min} to ${max}`)

/**
 * Without `search`, `limit` and `offset` the list holds every template, as it always did.
 * `search` keeps the templates whose name holds the text (any case, taken literally);
 * `limit` and `offset` answer one page of the sorted list.
 */
export const ListTemplatesQuery = z.object({
  app: z.string().max(32).optional(),
  sort: z.enum(TEMPLATE_SORT_COLUMNS, { error: 'invalid sort column' }).optional(),
  order: z.string().max(8).optional(),
  search: z
    .string()
    .max(MAX_NAME_LENGTH, `search must be at most ${MAX_NAME_LENGTH} characters long`)
    .optional(),
  limit: TemplateListCount('limit', 1, MAX_TEMPLATE_PAGE).optional(),
  offset: TemplateListCount('offset', 0, 1_000_000).optional(),
})

/** `arguments` must be a JSON array of strings; returns the message or null. */
export function argumentsProblem(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text.trim() === '') return null
  try {
    const value: unknown = JSON.parse(text)
    if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) {
      return 'template arguments must be a JSON array of strings'
    }
    return null
  } catch {
    return 'template arguments must be valid JSON'
  }
}
