import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  ActiveTask,
  CreateTaskBody,
  StatsRow,
  StopTaskBody,
  Task,
  TaskOutput,
  TaskWithTemplate,
} from './tasks.schemas.js'

const ProjectParams = z.object({ project_id: PathId })
const TaskParams = z.object({ project_id: PathId, task_id: PathId })
const TemplateParams = z.object({ project_id: PathId, template_id: PathId })
const LastQuery = z.object({ limit: z.string().max(10).optional() })
const base = '/api/project/:project_id/tasks'

export const taskRoutes = {
  create: defineRoute({
    method: 'POST',
    path: base,
    access: access.project('runProjectTasks'),
    params: ProjectParams,
    body: CreateTaskBody,
    response: Task,
    status: 201,
  }),
  /** The project's newest 1000 tasks. */
  list: defineRoute({
    method: 'GET',
    path: base,
    access: access.project(),
    params: ProjectParams,
    response: z.array(TaskWithTemplate),
    status: 200,
  }),
  /** The newest `limit` tasks (1–200, default 200). */
  last: defineRoute({
    method: 'GET',
    path: `${base}/last`,
    access: access.project(),
    params: ProjectParams,
    query: LastQuery,
    response: z.array(TaskWithTemplate),
    status: 200,
  }),
  get: defineRoute({
    method: 'GET',
    path: `${base}/:task_id`,
    access: access.project(),
    params: TaskParams,
    response: Task,
    status: 200,
  }),
  output: defineRoute({
    method: 'GET',
    path: `${base}/:task_id/output`,
    access: access.project(),
    params: TaskParams,
    response: z.array(TaskOutput),
    status: 200,
  }),
  /** The whole log as plain text, one line per output record. */
  rawOutput: defineRoute({
    method: 'GET',
    path: `${base}/:task_id/raw_output`,
    access: access.project(),
    params: TaskParams,
    status: 200,
  }),
  stop: defineRoute({
    method: 'POST',
    path: `${base}/:task_id/stop`,
    access: access.project('runProjectTasks'),
    params: TaskParams,
    body: StopTaskBody,
    status: 204,
  }),
  confirm: defineRoute({
    method: 'POST',
    path: `${base}/:task_id/confirm`,
    access: access.project('runProjectTasks'),
    params: TaskParams,
    status: 204,
  }),
  reject: defineRoute({
    method: 'POST',
    path: `${base}/:task_id/reject`,
    access: access.project('runProjectTasks'),
    params: TaskParams,
    status: 204,
  }),
  /** Deletes a finished task and its log; administrators only. */
  remove: defineRoute({
    method: 'DELETE',
    path: `${base}/:task_id`,
    access: access.project('manageProjectResources', true),
    params: TaskParams,
    status: 204,
  }),
  templateTasks: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/templates/:template_id/tasks',
    access: access.project(),
    params: TemplateParams,
    query: z.object({ status: z.string().max(32).optional() }),
    response: z.array(TaskWithTemplate),
    status: 200,
  }),
  templateLastTasks: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/templates/:template_id/tasks/last',
    access: access.project(),
    params: TemplateParams,
    query: LastQuery,
    response: z.array(TaskWithTemplate),
    status: 200,
  }),
  templateStats: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/templates/:template_id/stats',
    access: access.project(),
    params: TemplateParams,
    query: z.object({
      start: z.string().max(10).optional(),
      end: z.string().max(10).optional(),
      user_id: z.string().max(15).optional(),
    }),
    response: z.array(StatsRow),
    status: 200,
  }),
}

const ActiveTaskParams = z.object({ task_id: PathId })

export const activeTaskRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api/tasks',
    access: access.admin,
    response: z.array(ActiveTask),
    status: 200,
  }),
  /** Same answer as the list (the compatible API does so); an unknown task is 404. */
  get: defineRoute({
    method: 'GET',
    path: '/api/tasks/:task_id',
    access: access.admin,
    params: ActiveTaskParams,
    response: z.array(ActiveTask),
    status: 200,
  }),
  /** Asks a queued or running task to stop. */
  stop: defineRoute({
    method: 'DELETE',
    path: '/api/tasks/:task_id',
    access: access.admin,
    params: ActiveTaskParams,
    status: 204,
  }),
}
