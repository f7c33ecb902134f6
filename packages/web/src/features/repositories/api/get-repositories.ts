import { repositoryRoutes, type Repository } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { repositoryKeys } from './repositories.query-keys'

export const repositoriesQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: repositoryKeys.list(projectId),
    queryFn: async ({ signal }): Promise<Repository[]> =>
      (await api.call(repositoryRoutes.list, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useRepositories(projectId: number) {
  return useQuery(repositoriesQueryOptions(projectId))
}
