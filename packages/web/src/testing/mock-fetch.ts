import { vi } from 'vitest'

export interface MockResponse {
  status?: number
  statusText?: string
  body?: unknown
}

export interface RecordedRequest {
  method: string
  path: string
  body: unknown
  headers: Record<string, string>
}

type Handler = MockResponse | ((request: RecordedRequest) => MockResponse)

/**
 * Replaces `fetch` with a table of answers keyed by "METHOD /path". Unlisted requests answer 404,
 * so a test fails loudly instead of reaching a network.
 */
export function mockFetch(routes: Record<string, Handler>) {
  const requests: RecordedRequest[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
    const method = (init?.method ?? 'GET').toUpperCase()
    const text = typeof init?.body === 'string' ? init.body : undefined
    const request: RecordedRequest = {
      method,
      path: url.pathname,
      body: text ? (JSON.parse(text) as unknown) : undefined,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
    }
    requests.push(request)
    const handler = routes[`${method} ${url.pathname}`]
    const answer: MockResponse =
      typeof handler === 'function' ? handler(request) : (handler ?? { status: 404 })
    const status = answer.status ?? 200
    const empty = status === 204 || answer.body === undefined
    return new Response(empty ? null : JSON.stringify(answer.body), {
      status,
      statusText: answer.statusText ?? '',
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { fetchMock, requests }
}
