import { keyRoutes, type AccessKey } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keyKeys } from './keys.query-keys'

export function useDeleteKey(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: AccessKey) => {
      await api.call(keyRoutes.remove, { params: { project_id: projectId, key_id: item.id } })
      return item
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }),
  })
}
