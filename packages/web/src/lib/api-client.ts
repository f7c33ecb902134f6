import { ApiError, createApiClient } from '@flagman/contract'

/** The one client the console uses; same origin, the session cookie authenticates. */
export const api = createApiClient({ credentials: 'same-origin' })

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError
}

export function isUnauthorized(error: unknown): boolean {
  return isApiError(error) && error.status === 401
}

/** The server answers 401 with this error when the session still needs a second factor. */
export function isTotpRequired(error: unknown): boolean {
  return isApiError(error) && error.status === 401 && error.error === 'TOTP_REQUIRED'
}
