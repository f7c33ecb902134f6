import { ApiError } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { getErrorText } from './error-text'

describe('getErrorText', () => {
  it('prefers the error field of the response', () => {
    const error = new ApiError(400, 'Bad Request', 'Project ID in body and URL must be the same', {
      error: 'Project ID in body and URL must be the same',
    })
    expect(getErrorText(error)).toBe('Project ID in body and URL must be the same')
  })

  it('uses the error field of an axios-style response', () => {
    const error = {
      message: 'Request failed with status code 429',
      response: { status: 429, data: { error: 'Too many attempts' } },
    }
    expect(getErrorText(error)).toBe('Too many attempts')
  })

  it('uses the client message when it is not the generic one', () => {
    expect(getErrorText(new TypeError('Failed to fetch'))).toBe('Failed to fetch')
  })

  it('shows status code and text for a 401 without an error field', () => {
    const error = new ApiError(401, 'Unauthorized', undefined, undefined)
    expect(error.message).toBe('Request failed with status code 401')
    expect(getErrorText(error)).toBe('401 Unauthorized')
  })

  it('falls back to the generic message for other statuses without an error field', () => {
    const error = new ApiError(500, 'Internal Server Error', undefined, undefined)
    expect(getErrorText(error)).toBe('Request failed with status code 500')
  })

  it('ignores an empty error field', () => {
    const error = new ApiError(403, 'Forbidden', '', { error: '' })
    expect(getErrorText(error)).toBe('')
  })

  it('accepts plain strings', () => {
    expect(getErrorText('Something broke')).toBe('Something broke')
  })
})
