import {
  type CreateRunnerBody,
  MAX_NAME_LENGTH,
  parseRunnerTags,
  RUNNER_TAG_PATTERN,
  type Runner,
} from '@flagman/contract'
import type { TFunction } from 'i18next'
import { z } from 'zod'

/** The slots limit the contract accepts. */
export const MAX_RUNNER_SLOTS = 10_000

export interface RunnerFormValues {
  name: string
  webhook: string
  /** Empty means 0: unlimited. */
  max_parallel_tasks: string
  /** Comma-separated. */
  tag: string
  active: boolean
}

export function runnerToFormValues(runner: Runner | null): RunnerFormValues {
  return {
    name: runner?.name ?? '',
    webhook: runner?.webhook ?? '',
    max_parallel_tasks:
      runner && runner.max_parallel_tasks > 0 ? String(runner.max_parallel_tasks) : '',
    tag: parseRunnerTags(runner?.tag).join(', '),
    active: runner?.active ?? true,
  }
}

export function runnerFormSchema(t: TFunction<'runners'>) {
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, t('form.nameRequired'))
      .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
    webhook: z
      .string()
      .trim()
      .max(2048, t('form.tooLong', { max: 2048 }))
      .refine((v) => v === '' || /^https?:\/\/[^\s]+$/i.test(v), t('form.webhookInvalid')),
    max_parallel_tasks: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || (/^\d+$/.test(v) && Number(v) <= MAX_RUNNER_SLOTS),
        t('form.maxParallelInvalid', { max: MAX_RUNNER_SLOTS }),
      ),
    tag: z
      .string()
      .refine(
        (v) => parseRunnerTags(v).every((tag) => RUNNER_TAG_PATTERN.test(tag)),
        t('form.tagsInvalid'),
      )
      .refine(
        (v) => parseRunnerTags(v).join(',').length <= MAX_NAME_LENGTH,
        t('form.tooLong', { max: MAX_NAME_LENGTH }),
      ),
    active: z.boolean(),
  })
}

export type RunnerFormOutput = z.output<ReturnType<typeof runnerFormSchema>>

/** The request body: no limit is 0, tags are sent as the server stores them. */
export function toRunnerBody(values: RunnerFormOutput): CreateRunnerBody {
  return {
    name: values.name,
    webhook: values.webhook,
    max_parallel_tasks: values.max_parallel_tasks === '' ? 0 : Number(values.max_parallel_tasks),
    tag: parseRunnerTags(values.tag).join(','),
    active: values.active,
  }
}
