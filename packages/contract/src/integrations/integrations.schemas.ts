import { z } from 'zod'
import { Id, InputId, MAX_NAME_LENGTH, typeError } from '../common/fields.js'

/** How a delivery proves where it comes from; empty means no check. */
export const INTEGRATION_AUTH_METHODS = ['', 'github', 'token', 'hmac'] as const
export type IntegrationAuthMethod = (typeof INTEGRATION_AUTH_METHODS)[number]

export const MATCH_TYPES = ['body', 'header'] as const
export const MATCH_METHODS = ['equals', 'unequals', 'contains'] as const
export const BODY_DATA_TYPES = ['json', 'string'] as const

export const Integration = z.object({
  id: Id,
  name: z.string(),
  project_id: Id,
  template_id: Id,
  auth_method: z.string(),
  auth_secret_id: Id.nullable(),
  auth_header: z.string(),
  /** Reachable through the project's aliases, where its matchers decide. */
  searchable: z.boolean(),
  task_params: z.record(z.string(), z.unknown()).nullable(),
  /** Skip a delivery while a task this integration started is still waiting to run. */
  debounce: z.boolean(),
})
export type Integration = z.infer<typeof Integration>

/** A name the compatible API refuses with its own wording when empty. */
const IntegrationName = z
  .string({ error: 'No Name set for integration' })
  .trim()
  .min(1, 'No Name set for integration')
  .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`)

const ShortText = (label: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters`)

const BodyProjectId = z
  .number({ error: typeError('project_id', 'a number') })
  .int()
  .optional()

const integrationFields = {
  name: IntegrationName,
  project_id: BodyProjectId,
  template_id: InputId('template_id'),
  auth_method: z
    .enum(INTEGRATION_AUTH_METHODS, {
      error: 'auth_method must be "", "github", "token" or "hmac"',
    })
    .default(''),
  auth_secret_id: InputId('auth_secret_id').nullish(),
  auth_header: ShortText('auth_header').default(''),
  searchable: z.boolean({ error: typeError('searchable', 'true or false') }).default(false),
  task_params: z
    .record(z.string(), z.unknown(), { error: 'task_params must be an object or null' })
    .nullish(),
  debounce: z.boolean({ error: typeError('debounce', 'true or false') }).default(false),
}

export const CreateIntegrationBody = z.object({
  ...integrationFields,
})
export type CreateIntegrationBody = z.input<typeof CreateIntegrationBody>

export const UpdateIntegrationBody = z.object({
  ...integrationFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateIntegrationBody = z.input<typeof UpdateIntegrationBody>

/** The compatible API's placeholder answer for what uses an integration. */
export const IntegrationRefs = z.object({ matchers: z.null(), values: z.null() })
export type IntegrationRefs = z.infer<typeof IntegrationRefs>

/** Integrations that use a matcher or an extracted value. */
export const IntegrationPartRefs = z.object({
  integrations: z.array(z.object({ id: z.number(), name: z.string() })),
})
export type IntegrationPartRefs = z.infer<typeof IntegrationPartRefs>

export const IntegrationMatcher = z.object({
  id: Id,
  integration_id: Id,
  name: z.string(),
  match_type: z.string(),
  method: z.string(),
  body_data_type: z.string(),
  key: z.string(),
  value: z.string(),
})
export type IntegrationMatcher = z.infer<typeof IntegrationMatcher>

const BodyIntegrationId = z
  .number({ error: typeError('integration_id', 'a number') })
  .int()
  .optional()

const matcherFields = {
  integration_id: BodyIntegrationId,
  name: IntegrationName,
  match_type: z.enum(MATCH_TYPES, { error: 'No Match Type set' }),
  method: z
    .enum(MATCH_METHODS, { error: 'method must be "equals", "unequals" or "contains"' })
    .default('equals'),
  body_data_type: z
    .enum(['', ...BODY_DATA_TYPES], { error: 'body_data_type must be "json" or "string"' })
    .default(''),
  key: ShortText('key').default(''),
  value: z
    .string({ error: 'No value set' })
    .max(MAX_NAME_LENGTH * 4, `value must be at most ${MAX_NAME_LENGTH * 4} characters`),
}

export const CreateMatcherBody = z.object({ ...matcherFields })
export type CreateMatcherBody = z.input<typeof CreateMatcherBody>

export const UpdateMatcherBody = z.object({
  ...matcherFields,
  id: z
    .number({ error: typeError('id', 'a number') })
    .int()
    .optional(),
})
export type UpdateMatcherBody = z.input<typeof UpdateMatcherBody>

export const IntegrationExtractValue = z.object({
  id: Id,
  integration_id: Id,
  name: z.string(),
  value_source: z.string(),
  body_data_type: z.string(),
  key: z.string(),
  variable: z.string(),
})
export type IntegrationExtractValue = z.infer<typeof IntegrationExtractValue>

/** A variable name the task's process environment can hold. */
const Variable = z
  .string({ error: typeError('variable', 'a string') })
  .trim()
  .max(MAX_NAME_LENGTH, `variable must be at most ${MAX_NAME_LENGTH} characters`)
  .regex(
    /^([A-Za-z_][A-Za-z0-9_]*)?$/,
    'variable must start with a letter or "_" and hold only letters, digits and "_"',
  )

const valueFields = {
  integration_id: BodyIntegrationId,
  name: IntegrationName,
  value_source: z.enum(['', ...MATCH_TYPES], {
    error: 'value_source must be "body" or "header"',
  }),
  body_data_type: z
    .enum(['', ...BODY_DATA_TYPES], { error: 'body_data_type must be "json" or "string"' })
    .default(''),
  key: ShortText('key').default(''),
  variable: Variable.default(''),
}

export const CreateExtractValueBody = z.object({
  ...valueFields,
  value_source: valueFields.value_source.default(''),
})
export type CreateExtractValueBody = z.input<typeof CreateExtractValueBody>

/** Fields sent are merged into the stored value. */
export const UpdateExtractValueBody = z.object({
  id: z.number({ error: typeError('id', 'a number') }).int(),
  integration_id: BodyIntegrationId,
  name: IntegrationName.optional(),
  value_source: valueFields.value_source.optional(),
  body_data_type: z
    .enum(['', ...BODY_DATA_TYPES], { error: 'body_data_type must be "json" or "string"' })
    .optional(),
  key: ShortText('key').optional(),
  variable: Variable.optional(),
})
export type UpdateExtractValueBody = z.input<typeof UpdateExtractValueBody>

/** An address a webhook is delivered to. */
export const IntegrationAlias = z.object({ id: Id, url: z.string() })
export type IntegrationAlias = z.infer<typeof IntegrationAlias>

/** What came of a webhook delivery for one integration. */
export const DELIVERY_RESULTS = [
  'task_started',
  'authentication_failed',
  'no_matcher_matched',
  'template_busy',
  'skipped_duplicate',
  'task_refused',
] as const
export type DeliveryResult = (typeof DELIVERY_RESULTS)[number]

/** One of the last deliveries to an integration, newest first in lists. */
export const IntegrationDelivery = z.object({
  id: Id,
  integration_id: Id,
  created: z.string(),
  /** The address the delivery came from. */
  source: z.string(),
  result: z.string(),
  task_id: Id.nullable(),
})
export type IntegrationDelivery = z.infer<typeof IntegrationDelivery>
