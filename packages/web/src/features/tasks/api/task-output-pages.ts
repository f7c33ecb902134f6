import { taskRoutes } from '@flagman/contract'
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback, useMemo, useRef, useState } from 'react'
import { api } from '../../../lib/api-client'
import type { LogLine } from '../log-buffer'
import { lastPageRows, OUTPUT_PAGE_LINES, pagesFor } from '../output-pages'
import { taskKeys } from './tasks.query-keys'

/** Pages kept for rows scrolled away from, so scrolling back shows them at once. */
const KEPT_PAGES = 50

export interface TaskOutputPages {
  /** Lines in the log (as far as it has been counted). */
  total: number
  /** The line at a 0-based row, or undefined while its page loads. */
  lineAt(row: number): LogLine | undefined
  /** Tells which rows are on screen; their pages are fetched. */
  showRows(first: number, last: number): void
  /** Counts the log again (new output arrived); a grown last page is fetched again. */
  refresh(): void
  isLoading: boolean
  error: Error | null
}

/**
 * A task's log read page by page: the line count first, then only the pages of the rows on
 * screen (the end, when the log opens), so a log of a million lines opens as fast as a short
 * one. With `whole`, every page is fetched (for searching a short log in the console).
 */
export function useTaskOutputPages(
  projectId: number,
  taskId: number,
  { whole = false }: { whole?: boolean } = {},
): TaskOutputPages {
  const queryClient = useQueryClient()
  const count = useQuery({
    queryKey: taskKeys.outputCount(projectId, taskId),
    queryFn: ({ signal }) =>
      api.call(taskRoutes.outputCount, {
        params: { project_id: projectId, task_id: taskId },
        signal,
      }),
    staleTime: Infinity,
  })
  const total = count.data?.count ?? 0
  const [rows, setRows] = useState<{ first: number; last: number } | null>(null)
  const wanted = whole ? { first: 0, last: total - 1 } : (rows ?? lastPageRows(total))
  const slots = useMemo(
    () => pagesFor(wanted.first, wanted.last, total),
    [wanted.first, wanted.last, total],
  )
  const pages = useQueries({
    queries: slots.map((slot) => ({
      queryKey: taskKeys.outputPage(projectId, taskId, slot.offset, slot.limit),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<LogLine[]> =>
        (
          (await api.call(taskRoutes.output, {
            params: { project_id: projectId, task_id: taskId },
            query: { offset: slot.offset, limit: slot.limit },
            signal,
          })) ?? []
        ).map(({ time, output }) => ({ time, output })),
      staleTime: Infinity,
    })),
  })

  // The newest lines of every page seen, so that a page being fetched again (the last one,
  // grown) or scrolled back to keeps showing what it had.
  const seen = useRef(new Map<number, LogLine[]>())
  slots.forEach((slot, i) => {
    const data = pages[i]?.data
    if (!data || seen.current.get(slot.index) === data) return
    seen.current.delete(slot.index)
    seen.current.set(slot.index, data)
    if (seen.current.size > KEPT_PAGES) {
      seen.current.delete(seen.current.keys().next().value as number)
    }
  })

  const lineAt = useCallback(
    (row: number) =>
      seen.current.get(Math.floor(row / OUTPUT_PAGE_LINES))?.[row % OUTPUT_PAGE_LINES],
    // A new function whenever a page arrives, so the rows showing it render again.
    [pages.map((page) => page.dataUpdatedAt).join(',')],
  )
  const showRows = useCallback((first: number, last: number) => {
    setRows((current) =>
      current && current.first === first && current.last === last ? current : { first, last },
    )
  }, [])
  const refresh = useCallback(() => {
    void queryClient.invalidateQueries({
      queryKey: taskKeys.outputCount(projectId, taskId),
      exact: true,
    })
  }, [queryClient, projectId, taskId])

  return {
    total,
    lineAt,
    showRows,
    refresh,
    isLoading: count.isLoading || pages.some((page) => page.isLoading && !page.data),
    error: count.error ?? pages.find((page) => page.error)?.error ?? null,
  }
}
