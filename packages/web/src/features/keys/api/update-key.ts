import { keyRoutes, type UpdateAccessKeyBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keyKeys } from './keys.query-keys'

export function useUpdateKey(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateAccessKeyBody & { id: number }) =>
      api.call(keyRoutes.update, {
        params: { project_id: projectId, key_id: body.id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }),
  })
}
