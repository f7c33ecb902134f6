import { z } from 'zod'
import { InputId } from '../common/fields.js'

/** Text the console shows where the Terraform/OpenTofu HTTP backend is not available. */
export const TERRAFORM_BACKEND_UNAVAILABLE =
  'Terraform/OpenTofu HTTP backend available only in PRO version.'

/** Largest state body the HTTP backend accepts (uncompressed). */
export const MAX_TERRAFORM_STATE_BYTES = 50 * 1024 * 1024

/** Largest lock information body (LOCK and UNLOCK). */
export const MAX_TERRAFORM_LOCK_INFO_BYTES = 64 * 1024

/** Backend file written into the module directory when a template overrides the backend. */
export const DEFAULT_BACKEND_FILENAME = 'backend.tf'

/** Content of that file: an empty `http` backend, configured by the TF_HTTP_* environment. */
export const BACKEND_OVERRIDE_CONTENT = 'terraform {\n  backend "http" {\n  }\n}\n'

/**
 * A backend file name a template may set: a plain file name in the module directory, ending
 * in `.tf` or `.tf.json`, so it can neither leave that directory nor be read as an option.
 */
export function isBackendFilename(value: string): boolean {
  return /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}\.tf(\.json)?$/.test(value) && !value.includes('..')
}

/** An HTTP-backend address of a workspace; `url` is `<web_host>/api/terraform/<alias>`. */
export const TerraformAlias = z.object({
  id: z.number().int(),
  url: z.string(),
  auth_key_id: z.number().int().nullable(),
})
export type TerraformAlias = z.infer<typeof TerraformAlias>

/** Body of creating or changing an alias: the login-with-password key guarding it. */
export const SaveTerraformAliasBody = z.object({ auth_key_id: InputId('auth_key_id') })
export type SaveTerraformAliasBody = z.infer<typeof SaveTerraformAliasBody>

/** How a state version came to be. */
export const TERRAFORM_STATE_SOURCES = ['task', 'alias', 'restore'] as const
export type TerraformStateSource = (typeof TERRAFORM_STATE_SOURCES)[number]

/**
 * A state version stored through the HTTP backend; lists leave out the state text.
 * `task_id`: the Flagman task that wrote it; `alias_id`: the workspace alias used from
 * outside; `user_id`/`user_name`: who restored it; `restored_from`: the version restored.
 */
export const TerraformState = z.object({
  id: z.number().int(),
  created: z.string(),
  task_id: z.number().int().nullable(),
  /** Status of the writing task, when a task wrote it. */
  status: z.string().nullable(),
  project_id: z.number().int(),
  inventory_id: z.number().int(),
  source: z.enum(TERRAFORM_STATE_SOURCES),
  alias_id: z.number().int().nullable(),
  user_id: z.number().int().nullable(),
  user_name: z.string().nullable(),
  restored_from: z.number().int().nullable(),
  /** Terraform's own counters, read from the state; null when it has none. */
  serial: z.number().int().nullable(),
  lineage: z.string().nullable(),
  /** Size of the state text in bytes (it is stored compressed). */
  size: z.number().int(),
  state: z.string().optional(),
})
export type TerraformState = z.infer<typeof TerraformState>

export const ListTerraformStatesQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(1000, 'limit must be at most 1000')
    .optional(),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset can not be negative')
    .optional(),
})

/** Terraform's lock information, as LOCK sends it and a refused LOCK answers it. */
export const TerraformLockInfo = z.looseObject({
  ID: z.string(),
  Operation: z.string().optional(),
  Info: z.string().optional(),
  Who: z.string().optional(),
  Version: z.string().optional(),
  Created: z.string().optional(),
  Path: z.string().optional(),
})
export type TerraformLockInfo = z.infer<typeof TerraformLockInfo>

/** Lock status of a workspace's state. */
export const TerraformLockStatus = z.object({
  locked: z.boolean(),
  /** The holder's lock information; null when unlocked. */
  info: TerraformLockInfo.nullable(),
  /** When the lock was taken (server time); null when unlocked. */
  since: z.string().nullable(),
  /** The task holding it, when a Flagman task does. */
  task_id: z.number().int().nullable(),
  alias_id: z.number().int().nullable(),
})
export type TerraformLockStatus = z.infer<typeof TerraformLockStatus>

export const TerraformStateDiffQuery = z.object({
  from: z.coerce
    .number({ error: 'from must be a state id' })
    .int()
    .positive('from must be a state id'),
  to: z.coerce.number({ error: 'to must be a state id' }).int().positive('to must be a state id'),
})

/** One resource instance in a diff, by its Terraform address (`module.x.aws_instance.web[0]`). */
export const TerraformResourceChange = z.object({
  address: z.string(),
  type: z.string(),
  /** Attribute names whose values differ (changed resources only). */
  attributes: z.array(z.string()),
})
export type TerraformResourceChange = z.infer<typeof TerraformResourceChange>

/** Differences between two state versions, by resource address. */
export const TerraformStateDiff = z.object({
  from: TerraformState,
  to: TerraformState,
  added: z.array(TerraformResourceChange),
  changed: z.array(TerraformResourceChange),
  removed: z.array(TerraformResourceChange),
  /** Root outputs whose values differ, appeared or disappeared. */
  outputs: z.array(z.string()),
})
export type TerraformStateDiff = z.infer<typeof TerraformStateDiff>
