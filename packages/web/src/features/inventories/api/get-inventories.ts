import { inventoryRoutes, type Inventory } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { inventoryKeys } from './inventories.query-keys'

export const inventoriesQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: inventoryKeys.list(projectId),
    queryFn: async ({ signal }): Promise<Inventory[]> =>
      (await api.call(inventoryRoutes.list, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useInventories(projectId: number) {
  return useQuery(inventoriesQueryOptions(projectId))
}
