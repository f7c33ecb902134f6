import { authKeys } from '../features/auth/api/auth.query-keys'
import { createQueryClient } from '../lib/query-client'

/**
 * The console's query client. A 401 may be a refusal rather than an expired session (the
 * compatible API answers some refusals with 401), so it only makes the app ask for the current
 * user again; the app root goes to the sign-in page if that fails too.
 */
export function createAppQueryClient() {
  return createQueryClient({
    onUnauthorized: (client, failedQueryKey) => {
      if (JSON.stringify(failedQueryKey) === JSON.stringify(authKeys.currentUser)) return
      void client.invalidateQueries({ queryKey: authKeys.currentUser })
    },
  })
}
