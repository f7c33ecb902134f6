import { environmentRoutes, type Environment } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { environmentKeys } from './environments.query-keys'

export const environmentsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: environmentKeys.list(projectId),
    queryFn: async ({ signal }): Promise<Environment[]> =>
      (await api.call(environmentRoutes.list, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useEnvironments(projectId: number) {
  return useQuery(environmentsQueryOptions(projectId))
}
