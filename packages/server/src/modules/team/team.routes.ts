import {
  addTeamMember,
  getTeamMember,
  leaveProject,
  listTeam,
  removeTeamMember,
  updateTeamMember,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as team from './team.service.js'

export function teamRoutes(app: FastifyInstance): void {
  mount(app, listTeam, async ({ db, project, query }) =>
    team.listTeam(db, project.projectId, query),
  )
  mount(app, addTeamMember, async ({ db, actor, project, body }) =>
    team.addMember(db, actor, project.projectId, body),
  )
  mount(app, getTeamMember, async ({ db, project, params }) =>
    team.getMember(db, project.projectId, params.user_id),
  )
  mount(app, updateTeamMember, async ({ db, actor, project, params, body }) =>
    team.changeRole(db, actor, project, params.user_id, body.role, body.project_id),
  )
  mount(app, removeTeamMember, async ({ db, actor, project, params }) =>
    team.removeMember(db, actor, project, params.user_id),
  )
  mount(app, leaveProject, async ({ db, actor, project }) => team.leave(db, actor, project))
}
