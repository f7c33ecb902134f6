import { environmentRoutes, type UpdateEnvironmentBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { environmentKeys } from './environments.query-keys'

export function useUpdateEnvironment(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateEnvironmentBody & { id: number }) =>
      api.call(environmentRoutes.update, {
        params: { project_id: projectId, environment_id: body.id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: environmentKeys.list(projectId) }),
  })
}
