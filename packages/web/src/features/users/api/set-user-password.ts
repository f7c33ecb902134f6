import { setUserPassword } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export function useSetUserPassword() {
  return useMutation({
    mutationFn: ({ userId, password }: { userId: number; password: string }) =>
      api.call(setUserPassword, { params: { user_id: userId }, body: { password } }),
  })
}
