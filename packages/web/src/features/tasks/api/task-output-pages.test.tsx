import { QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import type { ReactNode } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createTestQueryClient } from '../../../testing/render'
import { useTaskOutputPages } from './task-output-pages'

/** A server holding a log of `total()` lines that answers the count and pages of it. */
function serveLog(total: () => number) {
  const pages: string[] = []
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost')
      if (url.pathname.endsWith('/output/count')) {
        return Response.json({ count: total() })
      }
      const offset = Number(url.searchParams.get('offset'))
      const limit = Number(url.searchParams.get('limit'))
      pages.push(`${offset}+${limit}`)
      const last = Math.min(total(), offset + limit - 1)
      const lines = []
      for (let line = offset; line <= last; line += 1) {
        lines.push({ task_id: 12, time: '2026-01-01T00:00:00Z', output: `line ${line}`, line })
      }
      return Response.json(lines)
    }),
  )
  return { pages }
}

function render(options?: { whole?: boolean }) {
  const queryClient = createTestQueryClient()
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return renderHook(() => useTaskOutputPages(4, 12, options), { wrapper })
}

describe('useTaskOutputPages', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('opens a million-line log at its end with one page', async () => {
    const { pages } = serveLog(() => 1_000_000)
    const { result } = render()
    await waitFor(() => expect(result.current.lineAt(999_999)?.output).toBe('line 1000000'))
    expect(result.current.total).toBe(1_000_000)
    expect(pages).toEqual(['999001+1000'])
    expect(result.current.lineAt(0)).toBeUndefined()
  })

  it('fetches the pages of the rows shown, and only those', async () => {
    const { pages } = serveLog(() => 1_000_000)
    const { result } = render()
    await waitFor(() => expect(result.current.total).toBe(1_000_000))
    act(() => result.current.showRows(499_990, 500_020))
    await waitFor(() => expect(result.current.lineAt(500_010)?.output).toBe('line 500011'))
    expect(result.current.lineAt(499_990)?.output).toBe('line 499991')
    expect(pages).toContain('499001+1000')
    expect(pages).toContain('500001+1000')
    expect(pages.length).toBeLessThanOrEqual(3)
  })

  it('reads a grown last page again on refresh, keeping the old lines meanwhile', async () => {
    let total = 1500
    const { pages } = serveLog(() => total)
    const { result } = render()
    await waitFor(() => expect(result.current.lineAt(1499)?.output).toBe('line 1500'))
    total = 1600
    act(() => result.current.refresh())
    await waitFor(() => expect(result.current.lineAt(1599)?.output).toBe('line 1600'))
    expect(result.current.lineAt(1499)?.output).toBe('line 1500')
    expect(pages.at(-1)).toBe('1001+600')
  })

  it('loads a short log whole for searching', async () => {
    serveLog(() => 2500)
    const { result } = render({ whole: true })
    await waitFor(() => expect(result.current.lineAt(0)?.output).toBe('line 1'))
    await waitFor(() => expect(result.current.lineAt(1500)?.output).toBe('line 1501'))
    expect(result.current.lineAt(2499)?.output).toBe('line 2500')
  })
})
