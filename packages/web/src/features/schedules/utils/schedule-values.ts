import {
  type CreateScheduleBody,
  MAX_NAME_LENGTH,
  MAX_TIMEZONE_LENGTH,
  MissedRunPolicy,
  type Schedule,
  type UpdateScheduleBody,
} from '@flagman/contract'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import { CRON_MODES, type CronMode, DEFAULT_CRON, parseCron } from './cron-modes'

export interface ScheduleFormValues {
  name: string
  /** The template's id as the select holds it; empty until one is chosen. */
  template_id: string
  mode: CronMode
  minute: number
  hour: number
  day: number
  month: number
  weekday: number
  /** The expression: typed in `raw` mode, written by the selectors in the others. */
  cron: string
  /** Empty: the server's default zone. */
  timezone: string
  missed_run_policy: MissedRunPolicy
  active: boolean
}

export function scheduleFormSchema(t: TFunction<'schedules'>) {
  const tooLong = (max: number) => t('form.tooLong', { max })
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH)),
      template_id: z
        .string()
        .min(1, t('form.templateRequired'))
        .transform((value) => Number(value)),
      mode: z.enum(CRON_MODES),
      minute: z.number().int(),
      hour: z.number().int(),
      day: z.number().int(),
      month: z.number().int(),
      weekday: z.number().int(),
      cron: z.string().trim().max(MAX_NAME_LENGTH, tooLong(MAX_NAME_LENGTH)),
      timezone: z.string().trim().max(MAX_TIMEZONE_LENGTH, tooLong(MAX_TIMEZONE_LENGTH)),
      missed_run_policy: MissedRunPolicy,
      active: z.boolean(),
    })
    .superRefine((values, ctx) => {
      if (values.mode === 'raw' && values.cron === '') {
        ctx.addIssue({ code: 'custom', path: ['cron'], message: t('form.cronRequired') })
      }
    })
}

export type ScheduleFormOutput = z.output<ReturnType<typeof scheduleFormSchema>>

/** The form's values for a schedule; a new one runs every minute, written as raw cron. */
export function scheduleToFormValues(schedule: Schedule | null): ScheduleFormValues {
  const cron = schedule?.cron_format ?? DEFAULT_CRON
  return {
    name: schedule?.name ?? '',
    template_id: schedule ? String(schedule.template_id) : '',
    ...parseCron(cron),
    cron,
    timezone: schedule?.timezone ?? '',
    missed_run_policy: schedule?.missed_run_policy ?? 'skip',
    active: schedule?.active ?? true,
  }
}

export function toCreateScheduleBody(
  values: ScheduleFormOutput,
  projectId: number,
): CreateScheduleBody {
  return {
    name: values.name,
    template_id: values.template_id,
    cron_format: values.cron,
    repository_id: null,
    active: values.active,
    project_id: projectId,
    timezone: values.timezone,
    missed_run_policy: values.missed_run_policy,
  }
}

export function toUpdateScheduleBody(
  values: ScheduleFormOutput,
  schedule: Schedule,
  projectId: number,
): UpdateScheduleBody & { id: number } {
  return {
    ...toCreateScheduleBody(values, projectId),
    id: schedule.id,
    repository_id: schedule.repository_id,
  }
}
