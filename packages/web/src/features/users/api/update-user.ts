import { updateUser, type UpdateUserBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export function useUpdateUser() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, body }: { userId: number; body: UpdateUserBody }) =>
      api.call(updateUser, { params: { user_id: userId }, body }),
    // The signed-in user's own record is cached outside this feature, so refresh everything.
    onSuccess: () => queryClient.invalidateQueries(),
  })
}
