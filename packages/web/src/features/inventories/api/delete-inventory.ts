import { inventoryRoutes, type Inventory } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { inventoryKeys } from './inventories.query-keys'

export function useDeleteInventory(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: Inventory) => {
      await api.call(inventoryRoutes.remove, {
        params: { project_id: projectId, inventory_id: item.id },
      })
      return item
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inventoryKeys.list(projectId) }),
  })
}
