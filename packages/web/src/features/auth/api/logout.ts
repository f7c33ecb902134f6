import { logout } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** Ends the session; cached data of the signed-out user is dropped whatever the answer. */
export function useLogout() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      try {
        await api.call(logout)
      } finally {
        queryClient.clear()
      }
    },
  })
}
