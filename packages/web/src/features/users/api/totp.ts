import { buildPath, disableTotp, enableTotp, getTotpQr, type User } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { authKeys } from '../../auth/api/auth.query-keys'
import { userKeys } from './users.query-keys'

/** Address of the QR code image of a second factor being set up (an `<img>` source). */
export function totpQrSrc(userId: number, totpId: number): string {
  return buildPath(getTotpQr.path, { user_id: userId, totp_id: totpId })
}

function useRefreshUsers() {
  const queryClient = useQueryClient()
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: authKeys.currentUser }),
      queryClient.invalidateQueries({ queryKey: userKeys.all }),
    ])
  }
}

/** Turns on two-factor sign-in; the answer holds the secret and recovery code, shown once. */
export function useEnableTotp() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: (userId: number) => api.call(enableTotp, { params: { user_id: userId } }),
    onSuccess: refresh,
  })
}

/** Turns two-factor sign-in off, for oneself or (administrators) for another user. */
export function useDisableTotp() {
  const refresh = useRefreshUsers()
  return useMutation({
    mutationFn: async ({ user, totpId }: { user: User; totpId: number }) => {
      await api.call(disableTotp, { params: { user_id: user.id, totp_id: totpId } })
      return user
    },
    onSuccess: refresh,
  })
}
