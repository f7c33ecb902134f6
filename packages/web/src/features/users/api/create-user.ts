import { createUser, type CreateUserBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { userKeys } from './users.query-keys'

export function useCreateUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateUserBody) => api.call(createUser, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
