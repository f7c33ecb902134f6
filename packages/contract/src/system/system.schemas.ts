import { z } from 'zod'
import { AuthMethods } from '../auth/auth.schemas.js'

export const SystemInfo = z.object({
  version: z.string(),
  ansible: z.string(),
  web_host: z.string(),
  use_remote_runner: z.boolean(),
  auth_methods: AuthMethods,
  premium_features: z.object({
    project_runners: z.boolean(),
    terraform_backend: z.boolean(),
  }),
  /** Time zone of schedules that name none; absent from servers of the compatible API. */
  schedule_timezone: z.string().optional(),
  /** Shortest password the server accepts; absent from servers of the compatible API. */
  password_min_length: z.number().int().positive().optional(),
  /**
   * Days of task history kept in projects that set none (0: for ever); absent from servers
   * of the compatible API.
   */
  task_retention_days: z.number().int().min(0).optional(),
  /** Days the activity log is kept (0: for ever); absent from servers of the compatible API. */
  event_retention_days: z.number().int().min(0).optional(),
})
export type SystemInfo = z.infer<typeof SystemInfo>

/** The version shown to people: the part before the first hyphen. */
export function displayVersion(version: string): string {
  return version.split('-')[0] ?? version
}

/** Server options, as the flat key → value object of `GET /api/options`. */
export const Options = z.record(z.string(), z.string())
export type Options = z.infer<typeof Options>

export const OPTION_KEY_PATTERN = /^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/

export const SetOptionBody = z.object({
  key: z
    .string({ error: 'key must be a string' })
    .trim()
    .min(1, 'key can not be empty')
    .max(255, 'key must be at most 255 characters')
    .regex(OPTION_KEY_PATTERN, 'key must be dotted words, e.g. "nav.unpinned_items"')
    // App settings have their own routes, which check every field.
    .refine((key) => !key.startsWith('apps.'), 'app settings are changed with PUT /api/apps/{id}'),
  value: z
    .string({ error: 'value must be a string' })
    .max(65_536, 'value must be at most 65536 characters'),
})
export type SetOptionBody = z.input<typeof SetOptionBody>
export const OptionEntry = z.object({ key: z.string(), value: z.string() })
export type OptionEntry = z.infer<typeof OptionEntry>

/** One readiness check: `ok`, or what is wrong in a few words. */
export const HealthCheck = z.string()

/**
 * The server's health for load balancers and orchestrators. Live: the process answers.
 * Ready: it should be sent requests (database reachable, migrations applied, this instance
 * registered among those serving the database); 503 with the same shape otherwise.
 */
export const Health = z.object({
  status: z.enum(['ok', 'unavailable']),
  instance: z.string(),
  version: z.string(),
  checks: z.record(z.string(), HealthCheck).optional(),
})
export type Health = z.infer<typeof Health>
