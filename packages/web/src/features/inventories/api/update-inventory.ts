import { inventoryRoutes, type UpdateInventoryBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { inventoryKeys } from './inventories.query-keys'

export function useUpdateInventory(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateInventoryBody & { id: number }) =>
      api.call(inventoryRoutes.update, {
        params: { project_id: projectId, inventory_id: body.id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inventoryKeys.list(projectId) }),
  })
}
