import { environmentRoutes, type Environment } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { environmentKeys } from './environments.query-keys'

export function useDeleteEnvironment(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: Environment) => {
      await api.call(environmentRoutes.remove, {
        params: { project_id: projectId, environment_id: item.id },
      })
      return item
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.list(projectId) }),
  })
}
