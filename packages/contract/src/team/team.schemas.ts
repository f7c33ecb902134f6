import { z } from 'zod'
import { Id, InputId } from '../common/fields.js'
import { ProjectRole } from '../common/roles.js'

export const TeamMember = z.object({
  id: Id,
  username: z.string(),
  name: z.string(),
  role: ProjectRole,
})
export type TeamMember = z.infer<typeof TeamMember>

export const AddTeamMemberBody = z.object({
  user_id: InputId('user_id'),
  role: ProjectRole,
  /** Checked against the URL. */
  project_id: z.unknown().optional(),
})
export type AddTeamMemberBody = z.input<typeof AddTeamMemberBody>

export const UpdateTeamMemberBody = z.object({
  role: ProjectRole,
  /** Checked against the URL. */
  project_id: z.unknown().optional(),
})
export type UpdateTeamMemberBody = z.input<typeof UpdateTeamMemberBody>

export const TEAM_SORT_COLUMNS = ['name', 'username', 'email', 'role'] as const
export const ListTeamQuery = z.object({
  sort: z.enum(TEAM_SORT_COLUMNS, { error: 'invalid sort column' }).optional(),
  order: z.string().optional(),
})
