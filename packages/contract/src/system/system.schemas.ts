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
})
export type SystemInfo = z.infer<typeof SystemInfo>

/** The version shown to people: the part before the first hyphen. */
export function displayVersion(version: string): string {
  return version.split('-')[0] ?? version
}
