import { ApiError } from '@flagman/contract'

const GENERIC_MESSAGE_PREFIX = 'Request failed with status code'

interface ErrorLike {
  message?: unknown
  status?: unknown
  statusText?: unknown
  error?: unknown
  response?: { status?: unknown; statusText?: unknown; data?: unknown }
}

function asString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined
}

function responseErrorField(error: ErrorLike): string | undefined {
  if (error instanceof ApiError) return asString(error.error)
  const data = error.response?.data
  if (typeof data === 'object' && data !== null && 'error' in data) {
    return asString((data as { error: unknown }).error)
  }
  return asString(error.error)
}

/**
 * The text a form shows for a failed request, resolved in this order: the response's `error`
 * field; the client's message unless it is the generic "Request failed with status code…"; for a
 * 401 the status code and status text; otherwise the message.
 */
export function getErrorText(error: unknown): string {
  if (typeof error === 'string') return error
  if (typeof error !== 'object' || error === null) return String(error)
  const e = error as ErrorLike
  const fromResponse = responseErrorField(e)
  if (fromResponse) return fromResponse
  const message = asString(e.message) ?? ''
  if (message && !message.startsWith(GENERIC_MESSAGE_PREFIX)) return message
  const status = e.status ?? e.response?.status
  const statusText = asString(e.statusText) ?? asString(e.response?.statusText)
  if (status === 401) return statusText ? `401 ${statusText}` : '401'
  return message
}
