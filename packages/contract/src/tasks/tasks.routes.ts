import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { BeforeId, KeysetQuery, PageLimit } from '../common/keyset.js'
import { access, defineRoute } from '../http.js'
import {
  ActiveTask,
  CreateTaskBody,
  StatsRow,
  StopTaskBody,
  Task,
  TaskOutput,
  TaskOutputCount,
  TaskOutputQuery,
  TaskWithTemplate,
} from './tasks.schemas.js'

const ProjectParams = z.object({ project_id: PathId })
const TaskParams = z.object({ project_id: PathId, task_id: PathId })
const TemplateParams = z.object({ project_id: PathId, template_id: PathId })
/** `limit` as it always was (1–200, more is read as 200), plus the keyset cursor. */
const LastQuery = z.object({ limit: z.string().max(10).optional(), before_id: BeforeId.optional() })
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
  /**
   * The project's newest 1000 tasks; with `limit` (1–1000) a page of that many, and with
   * `before_id` only tasks older than that one (keyset paging, see common/keyset.ts).
   */
  list: defineRoute({
    method: 'GET',
    path: base,
    access: access.project(),
    params: ProjectParams,
    query: KeysetQuery,
    response: z.array(TaskWithTemplate),
    status: 200,
  }),
  /** The newest `limit` tasks (1–200, default 200); with `before_id` those older than it. */
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
  /**
   * The task's log. Without query parameters, every line as the compatible API answers it;
   * with `offset` and/or `limit` (see TaskOutputQuery), one page of numbered lines.
   */
  output: defineRoute({
    method: 'GET',
    path: `${base}/:task_id/output`,
    access: access.project(),
    params: TaskParams,
    query: TaskOutputQuery,
    response: z.array(TaskOutput),
    status: 200,
  }),
  /** How many lines the task's log has, so a client can page it (e.g. jump to the end). */
  outputCount: defineRoute({
    method: 'GET',
    path: `${base}/:task_id/output/count`,
    access: access.project(),
    params: TaskParams,
    response: TaskOutputCount,
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
  /** A template's newest 1000 tasks, of one `status` if given; pages like `list`. */
  templateTasks: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/templates/:template_id/tasks',
    access: access.project(),
    params: TemplateParams,
    query: z.object({
      status: z.string().max(32).optional(),
      before_id: BeforeId.optional(),
      limit: PageLimit().optional(),
    }),
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
