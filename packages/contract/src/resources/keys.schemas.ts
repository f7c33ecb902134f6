import { z } from 'zod'
import { Id, MAX_NAME_LENGTH, RequiredName, typeError } from '../common/fields.js'

export const ACCESS_KEY_TYPES = ['none', 'ssh', 'login_password'] as const
export const AccessKeyType = z.enum(ACCESS_KEY_TYPES, {
  error: 'type must be one of none, ssh, login_password',
})
export type AccessKeyType = z.infer<typeof AccessKeyType>

/**
 * Longest value of one secret field: an RSA key of 16384 bits fits. The encrypted whole
 * must also fit a long text column (MAX_TEXT_BYTES), which the server checks once it is built.
 */
export const MAX_SECRET_LENGTH = 16 * 1024

const secretText = (label: string) =>
  z.string({ error: typeError(label, 'a string') }).max(MAX_SECRET_LENGTH, `${label} is too long`)

export const SshSecret = z.object({
  login: secretText('ssh.login').max(MAX_NAME_LENGTH).optional(),
  passphrase: secretText('ssh.passphrase').optional(),
  private_key: secretText('ssh.private_key').optional(),
})
export const LoginPasswordSecret = z.object({
  login: secretText('login_password.login').max(MAX_NAME_LENGTH).optional(),
  password: secretText('login_password.password').optional(),
})

/** A key as the API shows it: secret fields are always blank. */
export const AccessKey = z.object({
  id: Id,
  name: z.string(),
  type: z.string(),
  project_id: Id,
  login_password: z.object({ login: z.string(), password: z.string() }),
  ssh: z.object({ login: z.string(), passphrase: z.string(), private_key: z.string() }),
  string: z.string(),
  override_secret: z.boolean(),
  /** Lists only: no secret is stored (keys restored from a backup). */
  empty: z.boolean().optional(),
})
export type AccessKey = z.infer<typeof AccessKey>

const keyFields = {
  name: RequiredName('name'),
  type: AccessKeyType,
  project_id: z.number({ error: typeError('project_id', 'a number') }).int(),
  ssh: SshSecret.nullable().optional(),
  login_password: LoginPasswordSecret.nullable().optional(),
}

export const CreateAccessKeyBody = z.object({
  ...keyFields,
})
export type CreateAccessKeyBody = z.input<typeof CreateAccessKeyBody>

export const UpdateAccessKeyBody = z.object({
  ...keyFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
  /** Only when true are `type` and the secret replaced; otherwise only the name changes. */
  override_secret: z.boolean({ error: typeError('override_secret', 'true or false') }).optional(),
})
export type UpdateAccessKeyBody = z.input<typeof UpdateAccessKeyBody>

export const KEY_SORT_COLUMNS = ['name', 'type'] as const
