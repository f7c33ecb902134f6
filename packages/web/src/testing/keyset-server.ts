import { vi } from 'vitest'

/**
 * Stands in for a server list that pages by keyset (`limit`, `before_id`) over `rows`
 * (newest first); records the query of each request to `path`.
 */
export function keysetServer<T extends { id: number }>(path: string, rows: readonly T[]) {
  const queries: Record<string, string>[] = []
  const fetchMock = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(input instanceof Request ? input.url : String(input), 'http://localhost')
    if (url.pathname !== path) return new Response(null, { status: 404 })
    const query = Object.fromEntries(url.searchParams.entries())
    queries.push(query)
    const before = query.before_id === undefined ? Infinity : Number(query.before_id)
    const limit = query.limit === undefined ? 1000 : Number(query.limit)
    const page = rows.filter((row) => row.id < before).slice(0, limit)
    return new Response(JSON.stringify(page), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  vi.stubGlobal('fetch', fetchMock)
  return { queries }
}
