import { inventoryRoutes, type CreateInventoryBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { inventoryKeys } from './inventories.query-keys'

export function useCreateInventory(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateInventoryBody) =>
      api.call(inventoryRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inventoryKeys.list(projectId) }),
  })
}
