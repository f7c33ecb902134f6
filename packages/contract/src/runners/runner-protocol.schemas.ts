/*
 * What a remote runner and the server say to each other (`/api/internal/runners`). The
 * compatible runner's field names are kept as they are (`CurrentJobs`, `Username`, `ID`…);
 * Flagman's own runner also reads the extensions marked below.
 */
import { z } from 'zod'
import { MAX_NAME_LENGTH } from '../common/fields.js'
import type { JobSpec } from '../jobs/job-spec.js'
import { RunnerTagList } from './runners.schemas.js'

/** Header carrying the runner's token on every call but registration. */
export const RUNNER_TOKEN_HEADER = 'x-runner-token'

/** Longest long-poll a runner may ask for, in seconds; well under the offline timeout. */
export const MAX_RUNNER_WAIT_SECONDS = 30

export const RegisterRunnerBody = z.object({
  registration_token: z.string({ error: 'Invalid registration token' }),
  webhook: z.string().max(2048).nullish(),
  max_parallel_tasks: z.number().int().min(0).max(10_000).nullish(),
  public_key: z.string().max(16_384).nullish(),
  /** Extension: the name shown in the console. */
  name: z.string().trim().max(MAX_NAME_LENGTH).nullish(),
  /** Extension: comma-separated tags. */
  tag: RunnerTagList.nullish(),
})
export type RegisterRunnerBody = z.input<typeof RegisterRunnerBody>

export const RegisteredRunner = z.object({ token: z.string() })
export type RegisteredRunner = z.infer<typeof RegisteredRunner>

/** Query of the poll; all extensions, absent for the compatible runner. */
export const RunnerPollQuery = z.object({
  /** Hold the answer up to this many seconds until there is news for the runner. */
  wait: z.coerce
    .number({ error: 'wait must be a number of seconds' })
    .int('wait must be a whole number of seconds')
    .min(0, 'wait can not be negative')
    .max(MAX_RUNNER_WAIT_SECONDS, `wait must be at most ${MAX_RUNNER_WAIT_SECONDS} seconds`)
    .optional(),
  /** `hybrid`: RSA-OAEP wrapped AES-256-GCM instead of chunked RSA PKCS#1 v1.5. */
  encryption: z.enum(['hybrid'], { error: "encryption must be 'hybrid'" }).optional(),
  /** The runner's tags as started (`--tags`); replaces the stored ones when given. */
  tags: RunnerTagList.optional(),
  /** The runner's slots as started (`--max-parallel-tasks`); replaces the stored value. */
  max_parallel_tasks: z.coerce
    .number({ error: 'max_parallel_tasks must be a number' })
    .int()
    .min(0)
    .max(10_000)
    .optional(),
})
export type RunnerPollQuery = z.infer<typeof RunnerPollQuery>

export const RunnerCurrentJob = z.object({ id: z.number().int(), status: z.string() })

export const RunnerNewJob = z.object({
  Username: z.string(),
  IncomingVersion: z.string().nullable(),
  Alias: z.string(),
  task: z.record(z.string(), z.unknown()),
  template: z.record(z.string(), z.unknown()),
  inventory: z.record(z.string(), z.unknown()).nullable(),
  inventory_repository: z.record(z.string(), z.unknown()).nullable(),
  repository: z.record(z.string(), z.unknown()).nullable(),
  environment: z.record(z.string(), z.unknown()).nullable(),
  /** Extension: the job fully resolved, as the server would run it (`workRoot` empty). */
  job: z.custom<JobSpec>((v) => typeof v === 'object' && v !== null).optional(),
})
export type RunnerNewJob = z.infer<typeof RunnerNewJob>

export const RunnerPollAnswer = z.object({
  CurrentJobs: z.array(RunnerCurrentJob),
  new_jobs: z.array(RunnerNewJob),
  access_keys: z.record(z.string(), z.unknown()),
})
export type RunnerPollAnswer = z.infer<typeof RunnerPollAnswer>

export const RunnerLogRecord = z.object({
  time: z.string().max(64),
  message: z.string(),
})

export const RunnerJobProgress = z.object({
  ID: z.number().int().positive(),
  Status: z.string().max(32),
  LogRecords: z.array(RunnerLogRecord).nullish(),
  Commit: z.object({ hash: z.string().max(64), message: z.string() }).nullish(),
})
export type RunnerJobProgress = z.infer<typeof RunnerJobProgress>

export const RunnerProgressBody = z.object(
  { Jobs: z.array(RunnerJobProgress, { error: 'Invalid format' }) },
  { error: 'Invalid format' },
)
export type RunnerProgressBody = z.infer<typeof RunnerProgressBody>
