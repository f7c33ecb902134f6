import { environmentRoutes, type CreateEnvironmentBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { environmentKeys } from './environments.query-keys'

export function useCreateEnvironment(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateEnvironmentBody) =>
      api.call(environmentRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.list(projectId) }),
  })
}
