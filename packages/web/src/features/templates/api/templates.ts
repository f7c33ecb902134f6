import { appRoutes, type App, type Refs, type Template, templateRoutes } from '@flagman/contract'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
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
