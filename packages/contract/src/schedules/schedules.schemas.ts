import { z } from 'zod'
import {
  Bool,
  Id,
  InputId,
  MAX_NAME_LENGTH,
  RequiredName,
  Timestamp,
  typeError,
} from '../common/fields.js'

/** What happens to the times a schedule was due while the server was down. */
export const MISSED_RUN_POLICIES = ['skip', 'run_once'] as const
export const MissedRunPolicy = z.enum(MISSED_RUN_POLICIES, {
  error: (issue) =>
    issue.input === undefined
      ? 'missed_run_policy is required'
      : 'missed_run_policy must be skip or run_once',
})
export type MissedRunPolicy = z.infer<typeof MissedRunPolicy>

/**
 * Why a due time did not start a task on time: the server was down, the template still had
 * a task that had not finished, or the task could not be created.
 */
export const MISS_REASONS = ['server_down', 'template_busy', 'error'] as const
export const MissReason = z.enum(MISS_REASONS)
export type MissReason = z.infer<typeof MissReason>

/** The latest due time of a schedule that started a task. */
export const ScheduleLastRun = z.object({
  /** When the expression named it. */
  due: Timestamp,
  /** When the server started the task. */
  fired: Timestamp,
  task_id: Id.nullable(),
})
export type ScheduleLastRun = z.infer<typeof ScheduleLastRun>

/** The latest due time of a schedule that was missed, with the reason. */
export const ScheduleLastMiss = z.object({
  /** The (last) due time missed. */
  due: Timestamp,
  reason: MissReason,
  /** Due times missed together: several while the server was down, otherwise 1. */
  count: z.number().int(),
  /** Set when the miss was made up for by one run when the server started. */
  task_id: Id.nullable(),
})
export type ScheduleLastMiss = z.infer<typeof ScheduleLastMiss>

export const Schedule = z.object({
  id: Id,
  project_id: Id,
  template_id: Id,
  cron_format: z.string(),
  name: z.string(),
  active: z.boolean(),
  /** Set: a commit check that runs the template when the repository's head changes. */
  repository_id: Id.nullable(),
  /** IANA time zone the expression is read in; empty: the server's default. */
  timezone: z.string(),
  missed_run_policy: MissedRunPolicy,
  last_run: ScheduleLastRun.nullable(),
  last_miss: ScheduleLastMiss.nullable(),
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

/** Longest time zone name accepted; the IANA names are far shorter. */
export const MAX_TIMEZONE_LENGTH = 64

/** An IANA time zone name or empty; whether the server knows it is decided there. */
const Timezone = z
  .string({ error: typeError('timezone', 'a string') })
  .trim()
  .max(MAX_TIMEZONE_LENGTH, `timezone must be at most ${MAX_TIMEZONE_LENGTH} characters`)

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
  /** Left out: empty on creation, unchanged on update. */
  timezone: Timezone.optional(),
  /** Left out: `skip` on creation, unchanged on update. */
  missed_run_policy: MissedRunPolicy.optional(),
}

export const CreateScheduleBody = z.object(scheduleFields)
export type CreateScheduleBody = z.input<typeof CreateScheduleBody>

export const UpdateScheduleBody = z.object({
  ...scheduleFields,
  id: z.number({ error: typeError('id', 'a number') }).int(),
})
export type UpdateScheduleBody = z.input<typeof UpdateScheduleBody>

export const ScheduleActiveBody = z.object({ active: Bool('active') })
export type ScheduleActiveBody = z.input<typeof ScheduleActiveBody>

/** Other fields of a schedule form may come along; only the expression is checked. */
export const ValidateCronBody = z.object({ cron_format: CronFormat })
export type ValidateCronBody = z.input<typeof ValidateCronBody>

/** An expression and a time zone (empty: the server's default) whose next times are wanted. */
export const PreviewScheduleBody = z.object({
  cron_format: CronFormat,
  timezone: Timezone.optional(),
})
export type PreviewScheduleBody = z.input<typeof PreviewScheduleBody>

/** How many times a preview lists. */
export const PREVIEW_RUN_COUNT = 5

export const SchedulePreview = z.object({
  /** The time zone the expression was read in (the server's default for an empty one). */
  timezone: z.string(),
  /** The next times the expression names, as UTC timestamps, earliest first. */
  next_runs: z.array(Timestamp),
})
export type SchedulePreview = z.infer<typeof SchedulePreview>

/** What the clock did with one due time of a schedule. */
export const SCHEDULE_RUN_OUTCOMES = ['started', 'missed', 'unchanged', 'pending'] as const
export const ScheduleRunOutcome = z.enum(SCHEDULE_RUN_OUTCOMES)
export type ScheduleRunOutcome = z.infer<typeof ScheduleRunOutcome>

/** One due time of a schedule as the clock recorded it. */
export const ScheduleRun = z.object({
  id: Id,
  schedule_id: Id,
  due: Timestamp,
  /** When the clock dealt with it. */
  fired: Timestamp,
  /**
   * `started`: a task was queued; `missed`: none was (see `reason`); `unchanged`: a commit
   * check found no new commit; `pending`: claimed, and the task not created yet.
   */
  outcome: ScheduleRunOutcome,
  /** Set for a miss, and for a run made up at start for times missed while down. */
  reason: MissReason.nullable(),
  /** Due times this record stands for (more than 1 only for times missed while down). */
  count: z.number().int(),
  task_id: Id.nullable(),
})
export type ScheduleRun = z.infer<typeof ScheduleRun>
