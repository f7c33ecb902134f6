import { repositoryRoutes, type UpdateRepositoryBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { repositoryKeys } from './repositories.query-keys'

export function useUpdateRepository(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateRepositoryBody & { id: number }) =>
      api.call(repositoryRoutes.update, {
        params: { project_id: projectId, repository_id: body.id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.list(projectId) }),
  })
}
