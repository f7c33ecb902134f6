import { buildPath, type RouteBody, type RouteDef, type RouteResponse } from './http.js'

/** An error answer from the API, carrying the server's message. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
    /** The `error` field of the body, when there is one. */
    readonly error: string | undefined,
    readonly body: unknown,
  ) {
    super(error ?? `Request failed with status code ${status}`)
    this.name = 'ApiError'
  }
}

export interface CallOptions<R> {
  params?: Record<string, string | number>
  query?: Record<string, string | number | boolean | undefined>
  body?: RouteBody<R>
  signal?: AbortSignal
}

export interface ApiClientOptions {
  /** Origin and base path, e.g. `http://127.0.0.1:3000`; empty for same-origin. */
  baseUrl?: string
  /** Extra headers on every request, e.g. `Authorization`. */
  headers?: Record<string, string>
  fetch?: typeof fetch
  credentials?: RequestCredentials
}

export type ApiClient = ReturnType<typeof createApiClient>

/** A small fetch client over the route table, used by the console and the tests. */
export function createApiClient(options: ApiClientOptions = {}) {
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args))
  const baseUrl = options.baseUrl ?? ''

  async function call<R extends RouteDef>(
    route: R,
    opts: CallOptions<R> = {},
  ): Promise<RouteResponse<R>> {
    let url = baseUrl + buildPath(route.path, opts.params)
    if (opts.query) {
      const search = new URLSearchParams()
      for (const [key, value] of Object.entries(opts.query)) {
        if (value !== undefined) search.set(key, String(value))
      }
      const text = search.toString()
      if (text) url += `?${text}`
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers }
    let body: string | undefined
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(opts.body)
    }
    const response = await doFetch(url, {
      method: route.method,
      headers,
      body,
      signal: opts.signal,
      credentials: options.credentials ?? 'same-origin',
    })
    const text = await response.text()
    let parsed: unknown = undefined
    if (text) {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    if (!response.ok) {
      const error =
        typeof parsed === 'object' && parsed !== null && 'error' in parsed
          ? String((parsed as { error: unknown }).error)
          : undefined
      throw new ApiError(response.status, response.statusText, error, parsed)
    }
    return parsed as RouteResponse<R>
  }

  return { call }
}
