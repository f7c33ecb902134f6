import { recoverTotp, verifyTotp } from '@flagman/contract'
import { useMutation } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

/** Gives the code of the authenticator app for a session that still needs one. */
export function useVerifyTotp() {
  return useMutation({
    mutationFn: (passcode: string) => api.call(verifyTotp, { body: { passcode } }),
  })
}

/** Signs in with the recovery code instead; the server then turns two-factor sign-in off. */
export function useRecoverTotp() {
  return useMutation({
    mutationFn: (recoveryCode: string) =>
      api.call(recoverTotp, { body: { recovery_code: recoveryCode } }),
  })
}
