import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  ProjectLogSearchQuery,
  ProjectLogSearchResult,
  TaskLogSearchQuery,
  TaskLogSearchResult,
} from './log-search.schemas.js'

export const logSearchRoutes = {
  /**
   * Lines of one task's log holding `q` (literally, any case), in log order: the first
   * `limit` (default 100, at most 500).
   */
  task: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/tasks/:task_id/output/search',
    access: access.project(),
    params: z.object({ project_id: PathId, task_id: PathId }),
    query: TaskLogSearchQuery,
    response: TaskLogSearchResult,
    status: 200,
  }),
  /**
   * Lines holding `q` in the logs of the project's tasks, newest first, optionally of one
   * template and of tasks created in [`from`, `to`): the first `limit` (default 50, at most
   * 200).
   */
  project: defineRoute({
    method: 'GET',
    path: '/api/project/:project_id/output/search',
    access: access.project(),
    params: z.object({ project_id: PathId }),
    query: ProjectLogSearchQuery,
    response: ProjectLogSearchResult,
    status: 200,
  }),
}
