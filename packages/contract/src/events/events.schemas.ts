import { z } from 'zod'
import { Timestamp } from '../common/fields.js'

export const EVENT_OBJECT_TYPES = [
  'task',
  'environment',
  'inventory',
  'key',
  'project',
  'repository',
  'schedule',
  'template',
  'user',
  'view',
  'integration',
  'integrationextractvalue',
  'integrationmatcher',
  'terraform_inventory_alias',
] as const
export type EventObjectType = (typeof EVENT_OBJECT_TYPES)[number]

export const Event = z.object({
  /** Only in a paged answer (one asked for with `limit` or `before_id`): the next cursor. */
  id: z.number().optional(),
  user_id: z.number().nullable(),
  project_id: z.number().nullable(),
  integration_id: z.number().nullable(),
  object_id: z.number().nullable(),
  object_type: z.string(),
  description: z.string(),
  created: Timestamp,
  object_name: z.string(),
  project_name: z.string().nullable(),
  username: z.string().nullable(),
})
export type Event = z.infer<typeof Event>
