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
})
export type Project = z.infer<typeof Project>

const maxParallelTasks = z
  .number({ error: typeError('max_parallel_tasks', 'an integer') })
  .int('max_parallel_tasks must be an integer')
  .min(0, 'max_parallel_tasks must be 0 or greater')
  .max(1_000_000, 'max_parallel_tasks must be at most 1000000')

const projectFields = {
  name: RequiredName('Project name'),
  alert: Bool('alert').optional(),
  alert_chat: OptionalText('alert_chat').nullable().optional(),
  max_parallel_tasks: maxParallelTasks.nullable().optional(),
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
