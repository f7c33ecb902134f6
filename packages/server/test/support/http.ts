import { expect } from 'vitest'
import type { z } from 'zod'

/** Who a request is sent as: a session cookie, an API token, both, or neither. */
export interface Credentials {
  /** A whole `Cookie` header value, e.g. `semaphore=…`. */
  cookie?: string
  /** An API token, sent as `Authorization: Bearer …`. */
  token?: string
}

export const ANONYMOUS: Credentials = {}

export interface HttpOptions {
  as?: Credentials
  /** Sent JSON-encoded with `Content-Type: application/json`. */
  json?: unknown
  /** Sent exactly as given; set a Content-Type in `headers` when one is wanted. */
  raw?: string
  headers?: Record<string, string>
}

export interface HttpResult {
  status: number
  headers: Headers
  text: string
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  body: unknown
}

/** One raw HTTP call, answering whatever the status is, so tests assert it themselves. */
export async function http(
  baseUrl: string,
  method: string,
  path: string,
  options: HttpOptions = {},
): Promise<HttpResult> {
  const headers: Record<string, string> = { Accept: 'application/json' }
  if (options.as?.cookie) headers.Cookie = options.as.cookie
  if (options.as?.token) headers.Authorization = `Bearer ${options.as.token}`
  let body: string | undefined
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json'
    body = JSON.stringify(options.json)
  } else if (options.raw !== undefined) {
    body = options.raw
  }
  Object.assign(headers, options.headers)
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body })
  const text = await response.text()
  let parsed: unknown = undefined
  if (text && /json/.test(response.headers.get('content-type') ?? '')) parsed = JSON.parse(text)
  return { status: response.status, headers: response.headers, text, body: parsed }
}

/** The `error` text of an error answer; fails unless the body is `{"error": "<non-empty>"}`. */
export function errorOf(result: HttpResult): string {
  expect(result.body, `body of the ${result.status} answer`).toEqual({
    error: expect.any(String),
  })
  const { error } = result.body as { error: string }
  expect(error.trim().length).toBeGreaterThan(0)
  return error
}

/** Asserts an error answer: the status and a non-empty `error` text, optionally matching. */
export function expectError(result: HttpResult, status: number, message?: RegExp | string): string {
  expect(result.status, `status (body: ${result.text})`).toBe(status)
  const error = errorOf(result)
  if (message !== undefined) {
    if (typeof message === 'string') expect(error).toBe(message)
    else expect(error).toMatch(message)
  }
  return error
}

/** Asserts a success status and returns the body parsed by the contract's schema. */
export function expectBody<T extends z.ZodType>(
  result: HttpResult,
  status: number,
  schema: T,
): z.output<T> {
  expect(result.status, `status (body: ${result.text})`).toBe(status)
  const parsed = schema.safeParse(result.body)
  expect(parsed.error, `body ${result.text} does not match the contract`).toBeUndefined()
  return parsed.data as z.output<T>
}

/** Asserts an empty success answer (204). */
export function expectNoContent(result: HttpResult): void {
  expect(result.status, `status (body: ${result.text})`).toBe(204)
  expect(result.text).toBe('')
}

/** The session cookie set by an answer, as a `Cookie` header value. */
export function cookieFrom(result: HttpResult): string {
  const setCookie = result.headers.get('set-cookie') ?? ''
  const match = /(?<!\w)semaphore=([^;]+)/.exec(setCookie)
  if (!match) throw new Error(`no session cookie in: ${setCookie}`)
  return `semaphore=${match[1]}`
}
