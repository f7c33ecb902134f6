import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { User } from '../users/users.schemas.js'
import {
  AddTeamMemberBody,
  ListTeamQuery,
  TeamMember,
  UpdateTeamMemberBody,
} from './team.schemas.js'

export const MemberParams = z.object({ project_id: PathId, user_id: PathId })
const ProjectParams = z.object({ project_id: PathId })

export const listTeam = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/users',
  access: access.project(),
  params: ProjectParams,
  query: ListTeamQuery,
  response: z.array(TeamMember),
  status: 200,
})

export const addTeamMember = defineRoute({
  method: 'POST',
  path: '/api/project/:project_id/users',
  access: access.project('manageProjectUsers'),
  params: ProjectParams,
  body: AddTeamMemberBody,
  status: 204,
})

export const getTeamMember = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/users/:user_id',
  access: access.project(),
  params: MemberParams,
  response: User,
  status: 200,
})

export const updateTeamMember = defineRoute({
  method: 'PUT',
  path: '/api/project/:project_id/users/:user_id',
  access: access.project('manageProjectUsers'),
  params: MemberParams,
  body: UpdateTeamMemberBody,
  status: 204,
})

export const removeTeamMember = defineRoute({
  method: 'DELETE',
  path: '/api/project/:project_id/users/:user_id',
  access: access.project('manageProjectUsers'),
  params: MemberParams,
  status: 204,
})
