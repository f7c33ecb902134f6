import { z } from 'zod'
import { Bool, Id, OptionalText, RequiredName, Timestamp, typeError } from '../common/fields.js'
import { ProjectRole } from '../common/roles.js'

export const PROJECT_TYPES = ['', 'premium'] as const
export const ProjectType = z.enum(PROJECT_TYPES, { error: "type must be '' or 'premium'" })

export const Project = z.object({
  id: Id,
  name: z.string(),
  created: Timestamp,
  alert: z.boolean(),
  alert_chat: z.string().nullable(),
  max_parallel_tasks: z.number().int(),
  type: z.string(),
  /** Days of task history kept; null: the server's default, 0: for ever. */
  task_retention_days: z.number().int().nullable(),
  /** Runs kept per template; null: no limit. */
  max_tasks_per_template: z.number().int().nullable(),
})
export type Project = z.infer<typeof Project>

const maxParallelTasks = z
  .number({ error: typeError('max_parallel_tasks', 'an integer') })
  .int('max_parallel_tasks must be an integer')
  .min(0, 'max_parallel_tasks must be 0 or greater')
  .max(1_000_000, 'max_parallel_tasks must be at most 1000000')

/** Longest task history a project may ask to keep, in days (100 years). */
export const MAX_TASK_RETENTION_DAYS = 36_500
/** Most runs per template a project may ask to keep. */
export const MAX_TASKS_PER_TEMPLATE = 1_000_000

const taskRetentionDays = z
  .number({ error: typeError('task_retention_days', 'an integer') })
  .int('task_retention_days must be an integer')
  .min(0, 'task_retention_days must be 0 or greater')
  .max(MAX_TASK_RETENTION_DAYS, `task_retention_days must be at most ${MAX_TASK_RETENTION_DAYS}`)

const maxTasksPerTemplate = z
  .number({ error: typeError('max_tasks_per_template', 'an integer') })
  .int('max_tasks_per_template must be an integer')
  .min(1, 'max_tasks_per_template must be 1 or greater (null: no limit)')
  .max(MAX_TASKS_PER_TEMPLATE, `max_tasks_per_template must be at most ${MAX_TASKS_PER_TEMPLATE}`)

const projectFields = {
  name: RequiredName('Project name'),
  alert: Bool('alert').optional(),
  alert_chat: OptionalText('alert_chat').nullable().optional(),
  max_parallel_tasks: maxParallelTasks.nullable().optional(),
  /** Absent: unchanged on update; null: the server's default. */
  task_retention_days: taskRetentionDays.nullable().optional(),
  /** Absent: unchanged on update; null: no limit. */
  max_tasks_per_template: maxTasksPerTemplate.nullable().optional(),
}

export const CreateProjectBody = z.object({
  ...projectFields,
  type: ProjectType.optional(),
  demo: Bool('demo').optional(),
})
export type CreateProjectBody = z.input<typeof CreateProjectBody>

export const UpdateProjectBody = z.object({
  ...projectFields,
  id: z
    .number({ error: typeError('id', 'a number') })
    .int()
    .optional(),
})
export type UpdateProjectBody = z.input<typeof UpdateProjectBody>

export const ProjectRoleInfo = z.object({
  role: z.union([ProjectRole, z.literal('')]),
  permissions: z.number().int(),
})
export type ProjectRoleInfo = z.infer<typeof ProjectRoleInfo>
