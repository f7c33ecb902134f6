import { setUserPassword } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export interface SetPasswordInput {
  userId: number
  password: string
  /** Required when users change their own password. */
  currentPassword?: string
}

export function useSetUserPassword() {
  return useMutation({
    mutationFn: ({ userId, password, currentPassword }: SetPasswordInput) =>
      api.call(setUserPassword, {
        params: { user_id: userId },
        body: {
          password,
          ...(currentPassword === undefined ? {} : { current_password: currentPassword }),
        },
      }),
  })
}
