import {
  logSearchRoutes,
  type ProjectLogSearchResult,
  type TaskLogSearchResult,
} from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** Matches one server search answers at most; more says "truncated". */
export const TASK_LOG_SEARCH_LIMIT = 200

export const taskLogSearchKey = (projectId: number, taskId: number, text: string) =>
  ['project', projectId, 'tasks', 'output', taskId, 'search', text] as const

/** Searches the task's whole log on the server; idle while `text` is blank. */
export function useTaskLogSearch(projectId: number, taskId: number, text: string) {
  return useQuery({
    queryKey: taskLogSearchKey(projectId, taskId, text),
    queryFn: ({ signal }): Promise<TaskLogSearchResult> =>
      api.call(logSearchRoutes.task, {
        params: { project_id: projectId, task_id: taskId },
        query: { q: text, limit: String(TASK_LOG_SEARCH_LIMIT) },
        signal,
      }),
    enabled: text.trim() !== '',
    staleTime: 10_000,
  })
}

export interface ProjectLogSearchFilter {
  text: string
  templateId?: number
  /** Dates (YYYY-MM-DD) of the first and the last day whose tasks are searched. */
  from?: string
  to?: string
}

/** The day after a YYYY-MM-DD date: the server's `to` is exclusive, the form's last day is not. */
function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return next.toISOString().slice(0, 10)
}

/** Searches the logs of the project's tasks (of one template, over days); idle while blank. */
export function useProjectLogSearch(projectId: number, filter: ProjectLogSearchFilter) {
  return useQuery({
    queryKey: ['project', projectId, 'tasks', 'output', 'search', filter] as const,
    queryFn: ({ signal }): Promise<ProjectLogSearchResult> =>
      api.call(logSearchRoutes.project, {
        params: { project_id: projectId },
        query: {
          q: filter.text,
          ...(filter.templateId === undefined ? {} : { template_id: String(filter.templateId) }),
          ...(filter.from ? { from: filter.from } : {}),
          ...(filter.to ? { to: dayAfter(filter.to) } : {}),
        },
        signal,
      }),
    enabled: filter.text.trim() !== '',
    staleTime: 10_000,
  })
}
