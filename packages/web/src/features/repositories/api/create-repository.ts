import { repositoryRoutes, type CreateRepositoryBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { repositoryKeys } from './repositories.query-keys'

export function useCreateRepository(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateRepositoryBody) =>
      api.call(repositoryRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: repositoryKeys.list(projectId) }),
  })
}
