import { keyRoutes, type AccessKey } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keyKeys } from './keys.query-keys'

export const keysQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: keyKeys.list(projectId),
    queryFn: async ({ signal }): Promise<AccessKey[]> =>
      (await api.call(keyRoutes.list, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useKeys(projectId: number) {
  return useQuery(keysQueryOptions(projectId))
}
