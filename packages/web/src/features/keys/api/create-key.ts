import { keyRoutes, type CreateAccessKeyBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keyKeys } from './keys.query-keys'

export function useCreateKey(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateAccessKeyBody) =>
      api.call(keyRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keyKeys.list(projectId) }),
  })
}
