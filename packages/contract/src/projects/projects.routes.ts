import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import { ProjectBackup, RestoredProject } from './backup.schemas.js'
import {
  CreateProjectBody,
  Project,
  ProjectRoleInfo,
  UpdateProjectBody,
} from './projects.schemas.js'

export const ProjectParams = z.object({ project_id: PathId })

export const listProjects = defineRoute({
  method: 'GET',
  path: '/api/projects',
  access: access.auth,
  response: z.array(Project),
  status: 200,
})

export const createProject = defineRoute({
  method: 'POST',
  path: '/api/projects',
  access: access.auth,
  body: CreateProjectBody,
  response: Project,
  status: 201,
})

export const getProject = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id',
  access: access.project(),
  params: ProjectParams,
  response: Project,
  status: 200,
})

export const updateProject = defineRoute({
  method: 'PUT',
  path: '/api/project/:project_id',
  access: access.project('updateProject'),
  params: ProjectParams,
  body: UpdateProjectBody,
  status: 204,
})

export const deleteProject = defineRoute({
  method: 'DELETE',
  path: '/api/project/:project_id',
  access: access.project('updateProject'),
  params: ProjectParams,
  status: 204,
})

export const getProjectRole = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/role',
  access: access.project(),
  params: ProjectParams,
  response: ProjectRoleInfo,
  status: 200,
})

export const leaveProject = defineRoute({
  method: 'DELETE',
  path: '/api/project/:project_id/me',
  access: access.project(),
  params: ProjectParams,
  status: 204,
})

/** The project as a backup file: names instead of ids, no secrets. */
export const getProjectBackup = defineRoute({
  method: 'GET',
  path: '/api/project/:project_id/backup',
  access: access.project(),
  params: ProjectParams,
  response: ProjectBackup,
  status: 200,
})

/**
 * Creates a new project, owned by the caller, from a backup file. The answer is the project
 * (compatible clients read its id) plus a report of what the file held that could not be
 * mapped.
 */
export const restoreProject = defineRoute({
  method: 'POST',
  path: '/api/projects/restore',
  access: access.auth,
  body: ProjectBackup,
  response: RestoredProject,
  status: 200,
})
