import { repositoryRoutes, type Repository } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { repositoryKeys } from './repositories.query-keys'

export function useDeleteRepository(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: Repository) => {
      await api.call(repositoryRoutes.remove, {
        params: { project_id: projectId, repository_id: item.id },
      })
      return item
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.list(projectId) }),
  })
}
