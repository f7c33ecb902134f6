import { deleteUser, type User } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { userKeys } from './users.query-keys'

export function useDeleteUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (user: User) => {
      await api.call(deleteUser, { params: { user_id: user.id } })
      return user
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  })
}
