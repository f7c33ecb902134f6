import { templateRoutes, type Template } from '@flagman/contract'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import type { TemplateListParams } from '../utils/list-params'
import { templateKeys } from './templates.query-keys'

export interface TemplatePage {
  templates: Template[]
  /** Whether templates follow this page. */
  hasNext: boolean
}

/**
 * One page of the template list, searched by name on the server. One template more than the
 * page holds is asked for: its presence says whether there is a next page.
 */
export function useTemplatePage(
  projectId: number,
  viewId: number | null,
  { search, page, size }: TemplateListParams,
) {
  return useQuery({
    queryKey: [...templateKeys.list(projectId, viewId), 'page', search, page, size] as const,
    // The cached data stays a template array, like every list the live updates patch.
    queryFn: async ({ signal }): Promise<Template[]> => {
      const query = {
        sort: 'name' as const,
        order: 'asc',
        ...(search === '' ? {} : { search }),
        limit: String(size + 1),
        offset: String(page * size),
      }
      return (
        (viewId === null
          ? await api.call(templateRoutes.list, {
              params: { project_id: projectId },
              query,
              signal,
            })
          : await api.call(templateRoutes.listInView, {
              params: { project_id: projectId, view_id: viewId },
              query,
              signal,
            })) ?? []
      )
    },
    select: (rows): TemplatePage => ({
      templates: rows.slice(0, size),
      hasNext: rows.length > size,
    }),
    placeholderData: keepPreviousData,
  })
}
