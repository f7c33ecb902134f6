import {
  createProject,
  deleteProject,
  getProject,
  getProjectRole,
  listProjects,
  updateProject,
} from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as projects from './projects.service.js'

export function projectsRoutes(app: FastifyInstance): void {
  mount(app, listProjects, async ({ db, actor }) => projects.listProjects(db, actor), {
    reuse: 'data',
  })
  mount(app, createProject, async ({ db, config, actor, body }) =>
    projects.createProject(db, config, actor, body),
  )
  mount(app, getProject, async ({ db, project }) => projects.getProject(db, project.projectId))
  mount(app, updateProject, async ({ db, actor, project, body }) => {
    await projects.updateProject(db, actor, project.projectId, body)
    // A raised parallel-task limit may let waiting tasks start now.
    if (app.hasDecorator('tasks')) app.tasks.rescan()
  })
  mount(app, deleteProject, async ({ db, actor, project }) =>
    projects.deleteProject(db, actor, project.projectId),
  )
  mount(app, getProjectRole, async ({ project }) => ({
    role: project.role,
    permissions: project.permissions,
  }))
}
