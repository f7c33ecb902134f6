import { z } from 'zod'
import { Id, InputId, MAX_NAME_LENGTH, RequiredName, typeError } from '../common/fields.js'
import { MAX_SECRET_LENGTH } from './keys.schemas.js'
import { longText } from './refs.schemas.js'

export const SECRET_TYPES = ['var', 'env'] as const
export const SecretType = z.enum(SECRET_TYPES, { error: 'secret type must be var or env' })
export type SecretType = z.infer<typeof SecretType>

/** Versions of the runner images offered for an environment (oldest first). */
const DIND_RUNNER_VERSIONS = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((patch) => `v2.0.${patch}`)
const NODEJS_RUNNER_VERSIONS = [0, 3, 4, 5, 6, 7, 8, 9, 10].map((patch) => `v2.0.${patch}`)

/** Docker images an environment may choose, as `<name>:<version>`. */
export const ENVIRONMENT_IMAGES: readonly string[] = [
  ...DIND_RUNNER_VERSIONS.map((version) => `dind-runner:${version}`),
  ...NODEJS_RUNNER_VERSIONS.map((version) => `nodejs-runner:${version}`),
]

/**
 * One of ENVIRONMENT_IMAGES; empty or null means none. Omitted on update keeps the stored one,
 * so clients that do not know the field leave it alone.
 */
export const EnvironmentImage = z
  .string({ error: typeError('image', 'a string') })
  .max(MAX_NAME_LENGTH, 'image is too long')
  .refine((value) => value === '' || ENVIRONMENT_IMAGES.includes(value), {
    error: 'image must be one of the offered Docker images',
  })
  .nullable()
  .optional()
  .transform((value) => (value === undefined ? undefined : value || null))

export const EnvironmentSecret = z.object({
  id: Id,
  type: SecretType,
  name: z.string(),
  /** Always blank: values are never returned. */
  secret: z.string(),
  operation: z.string(),
})
export type EnvironmentSecret = z.infer<typeof EnvironmentSecret>

export const Environment = z.object({
  id: Id,
  name: z.string(),
  project_id: Id,
  /** Write-only: `""` when a password is stored, null when none is; never its value. */
  password: z.string().nullable(),
  json: z.string(),
  env: z.string().nullable(),
  /**
   * Docker image chosen for the environment's tasks; null when none is. Absent in answers of
   * servers of the compatible API, which keep no such field.
   */
  image: z.string().nullable().optional(),
  secrets: z.array(EnvironmentSecret).nullable(),
})
export type Environment = z.infer<typeof Environment>

const secretName = z
  .string({ error: typeError('secret name', 'a string') })
  .trim()
  .min(1, 'secret name can not be empty')
  .max(MAX_NAME_LENGTH, `secret name must be at most ${MAX_NAME_LENGTH} characters`)

/** One change to an environment's secrets; rows without an operation are ignored. */
export const SecretChange = z.discriminatedUnion(
  'operation',
  [
    z.object({
      operation: z.literal('create'),
      name: secretName,
      type: SecretType,
      secret: z
        .string({ error: typeError('secret value', 'a string') })
        .min(1, 'secret value can not be empty')
        .max(MAX_SECRET_LENGTH, 'secret value is too long'),
    }),
    z.object({
      operation: z.literal('update'),
      id: InputId('secret id'),
      name: secretName,
      type: SecretType,
      /** Empty keeps the stored value. */
      secret: z.string().max(MAX_SECRET_LENGTH, 'secret value is too long').default(''),
    }),
    z.object({
      operation: z.literal('delete'),
      id: InputId('secret id'),
    }),
    z.object({
      operation: z.literal(''),
    }),
  ],
  { error: 'secret operation must be create, update or delete' },
)
export type SecretChange = z.input<typeof SecretChange>

const environmentFields = {
  name: RequiredName('Environment name'),
  project_id: z.number({ error: typeError('project_id', 'a number') }).int(),
  /**
   * A non-empty value sets the password (stored encrypted). On update, empty, null or omitted
   * keeps the stored one; `clear_password` removes it.
   */
  password: z
    .string({ error: typeError('password', 'a string') })
    .max(MAX_NAME_LENGTH, `password must be at most ${MAX_NAME_LENGTH} characters`)
    .nullable()
    .optional(),
  json: longText('Extra variables').default('{}'),
  env: longText('Environment variables').nullable().optional(),
  image: EnvironmentImage,
  secrets: z
    .array(z.preprocess((row) => withOperation(row), SecretChange))
    .max(1000)
    .nullable()
    .optional(),
}

/** Treats a secret row without an operation as "leave alone". */
function withOperation(row: unknown): unknown {
  if (typeof row === 'object' && row !== null && !('operation' in row)) {
    return { ...row, operation: '' }
  }
  return row
}

export const CreateEnvironmentBody = z.object({
  ...environmentFields,
})
export type CreateEnvironmentBody = z.input<typeof CreateEnvironmentBody>

export const UpdateEnvironmentBody = z.object({
  ...environmentFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
  /** Removes the stored password; not together with a new `password`. */
  clear_password: z.boolean({ error: typeError('clear_password', 'true or false') }).optional(),
})
export type UpdateEnvironmentBody = z.input<typeof UpdateEnvironmentBody>

/** Parses JSON text that must hold an object; returns the reason when it does not. */
export function parseJsonObject(
  text: string,
): { ok: true; value: Record<string, unknown> } | { ok: false; reason: string } {
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, reason: 'must be a JSON object' }
    }
    return { ok: true, value: value as Record<string, unknown> }
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) }
  }
}
