import { taskRoutes, type TaskWithTemplate } from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from './templates.query-keys'

/** The newest tasks of a template. */
export function useTemplateLastTasks(projectId: number, templateId: number, limit: number) {
  return useQuery({
    queryKey: [...templateKeys.item(projectId, templateId), 'tasks', limit] as const,
    queryFn: async ({ signal }): Promise<TaskWithTemplate[]> =>
      (await api.call(taskRoutes.templateLastTasks, {
        params: { project_id: projectId, template_id: templateId },
        query: { limit: String(limit) },
        signal,
      })) ?? [],
  })
}
