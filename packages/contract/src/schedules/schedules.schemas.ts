import { z } from 'zod'
import { Bool, Id, InputId, MAX_NAME_LENGTH, RequiredName, typeError } from '../common/fields.js'

export const Schedule = z.object({
  id: Id,
  project_id: Id,
  template_id: Id,
  cron_format: z.string(),
  name: z.string(),
  active: z.boolean(),
  /** Set: a commit check that runs the template when the repository's head changes. */
  repository_id: Id.nullable(),
})
export type Schedule = z.infer<typeof Schedule>

/** A schedule as the project's list shows it, with the name of its template. */
export const ScheduleWithTemplate = Schedule.extend({ tpl_name: z.string() })
export type ScheduleWithTemplate = z.infer<typeof ScheduleWithTemplate>

/**
 * The cron intervals the template form offers for checking the repository for new commits,
 * shortest first.
 */
export const COMMIT_CHECK_INTERVALS = [
  { id: '1m', cron: '* * * * *' },
  { id: '5m', cron: '*/5 * * * *' },
  { id: '10m', cron: '*/10 * * * *' },
  { id: '1h', cron: '0 * * * *' },
  { id: '24h', cron: '0 0 * * *' },
] as const
export type CommitCheckInterval = (typeof COMMIT_CHECK_INTERVALS)[number]['id']

/** A cron expression as sent; whether it is valid is decided by the server's cron engine. */
const CronFormat = z
  .string({ error: typeError('cron_format', 'a string') })
  .trim()
  .max(MAX_NAME_LENGTH, `cron_format must be at most ${MAX_NAME_LENGTH} characters`)

const scheduleFields = {
  name: RequiredName('schedule name'),
  template_id: InputId('template_id'),
  cron_format: CronFormat,
  repository_id: InputId('repository_id').nullish(),
  active: Bool('active').default(true),
  project_id: z
    .number({ error: typeError('project_id', 'a number') })
    .int()
    .optional(),
  // Read-only fields a client may send back unchanged.
  tpl_name: z.unknown().optional(),
}

export const CreateScheduleBody = z.strictObject({ ...scheduleFields, id: z.unknown().optional() })
export type CreateScheduleBody = z.input<typeof CreateScheduleBody>

export const UpdateScheduleBody = z.strictObject({
  ...scheduleFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBody>

export const ScheduleActiveBody = z.strictObject({ active: Bool('active') })
export type ScheduleActiveBody = z.input<typeof ScheduleActiveBody>

/** Other fields of a schedule form may come along; only the expression is checked. */
export const ValidateCronBody = z.object({ cron_format: CronFormat })
export type ValidateCronBody = z.input<typeof ValidateCronBody>
