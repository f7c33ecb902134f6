import {
  appRoutes,
  type App,
  type Refs,
  type TaskUpdateMessage,
  type Template,
  templateRoutes,
} from '@flagman/contract'
import {
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { useRealtime } from '../../../hooks/use-realtime'
import { api } from '../../../lib/api-client'
import { templateKeys } from './templates.query-keys'

export const templatesQueryOptions = (projectId: number, viewId: number | null) =>
  queryOptions({
    queryKey: templateKeys.list(projectId, viewId),
    queryFn: async ({ signal }): Promise<Template[]> =>
      (viewId === null
        ? await api.call(templateRoutes.list, {
            params: { project_id: projectId },
            query: { sort: 'name', order: 'asc' },
            signal,
          })
        : await api.call(templateRoutes.listInView, {
            params: { project_id: projectId, view_id: viewId },
            query: { sort: 'name', order: 'asc' },
            signal,
          })) ?? [],
  })

export function useTemplates(projectId: number, viewId: number | null = null) {
  return useQuery(templatesQueryOptions(projectId, viewId))
}

export function useTemplate(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: templateKeys.item(projectId, templateId ?? 0),
    queryFn: ({ signal }) =>
      api.call(templateRoutes.get, {
        params: { project_id: projectId, template_id: templateId ?? 0 },
        signal,
      }),
    enabled: templateId !== null,
  })
}

/** All apps; the New template menu and the dialog offer the active ones. */
export function useApps() {
  return useQuery({
    queryKey: templateKeys.apps(),
    queryFn: async ({ signal }): Promise<App[]> =>
      (await api.call(appRoutes.list, { signal })) ?? [],
  })
}

export function useDeleteTemplate(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: Template) => {
      await api.call(templateRoutes.remove, {
        params: { project_id: projectId, template_id: item.id },
      })
      return item
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: templateKeys.all(projectId) }),
  })
}

/** Who uses the template; asked right before deleting it, so never cached. */
export function fetchTemplateRefs(projectId: number, templateId: number): Promise<Refs> {
  return api.call(templateRoutes.refs, {
    params: { project_id: projectId, template_id: templateId },
  })
}

/**
 * Shows a task's status change in the template lists and on the template page: the template's
 * last task is patched when it is that task, otherwise (a new task) the template is read again.
 * The last tasks shown in an expanded row are read again too.
 */
export function applyTemplateTaskUpdate(queryClient: QueryClient, message: TaskUpdateMessage) {
  const { task_id, project_id, template_id, status, start, end, version } = message
  const patch = (template: Template): Template =>
    template.last_task
      ? { ...template, last_task: { ...template.last_task, status, start, end, version } }
      : template
  let stale = false
  const update = (template: Template | undefined): Template | undefined => {
    if (!template || template.id !== template_id) return template
    if (template.last_task?.id === task_id) return patch(template)
    if (!template.last_task || template.last_task.id < task_id) stale = true
    return template
  }
  queryClient.setQueriesData<Template[]>(
    { queryKey: [...templateKeys.all(project_id), 'list'] },
    (list) => list?.map((template) => update(template) ?? template),
  )
  queryClient.setQueryData<Template>(templateKeys.item(project_id, template_id), update)
  if (stale) {
    void queryClient.invalidateQueries({ queryKey: [...templateKeys.all(project_id), 'list'] })
    void queryClient.invalidateQueries({
      queryKey: templateKeys.item(project_id, template_id),
      exact: true,
    })
  }
  void queryClient.invalidateQueries({
    queryKey: [...templateKeys.item(project_id, template_id), 'tasks'],
  })
}

/** Keeps the last task of the project's templates current from the live socket. */
export function useTemplateLiveUpdates(projectId: number) {
  const queryClient = useQueryClient()
  useRealtime((message) => {
    if (message.type === 'update' && message.project_id === projectId) {
      applyTemplateTaskUpdate(queryClient, message)
    }
  })
}
