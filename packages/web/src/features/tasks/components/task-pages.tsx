import TablePagination from '@mui/material/TablePagination'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TABLE_ROWS_PER_PAGE } from '../../../config/constants'

/** Older tasks the server has that are not loaded yet, and how to load the next of them. */
export interface MoreTasks {
  hasMore: boolean
  loadMore: () => void
}

/**
 * Client-side paging of a task table: the rows of the page shown and the page kept in range
 * when the list shrinks under it (a live update can remove tasks). With `more`, the list is
 * the loaded part of a longer one: the page after the shown one is loaded ahead, so that
 * going back through a long history never waits for more than one page.
 */
export function useTaskPages<T>(tasks: readonly T[], more?: MoreTasks) {
  const [page, setPage] = useState(0)
  const lastPage = Math.max(0, Math.ceil(tasks.length / TABLE_ROWS_PER_PAGE) - 1)
  const shown = Math.min(page, lastPage)
  const rows = tasks.slice(shown * TABLE_ROWS_PER_PAGE, (shown + 1) * TABLE_ROWS_PER_PAGE)
  const hasMore = more?.hasMore ?? false
  const loadMore = more?.loadMore
  const wanted = (page + 2) * TABLE_ROWS_PER_PAGE
  useEffect(() => {
    if (hasMore && wanted > tasks.length) loadMore?.()
  }, [hasMore, loadMore, wanted, tasks.length])
  return { page: shown, setPage, rows, count: tasks.length, hasMore }
}

/**
 * Page controls of a task table; none while everything fits on one page. While older tasks
 * are still on the server, the total is not known and the controls say "more than".
 */
export function TaskPagination({
  page,
  setPage,
  count,
  hasMore = false,
}: Pick<ReturnType<typeof useTaskPages>, 'page' | 'setPage' | 'count'> & { hasMore?: boolean }) {
  const { t } = useTranslation('tasks')
  if (count <= TABLE_ROWS_PER_PAGE && !hasMore) return null
  return (
    <TablePagination
      component="div"
      count={hasMore ? -1 : count}
      page={page}
      rowsPerPage={TABLE_ROWS_PER_PAGE}
      rowsPerPageOptions={[TABLE_ROWS_PER_PAGE]}
      onPageChange={(_, next) => setPage(next)}
      labelDisplayedRows={({ from, to, count: total }) =>
        total === -1
          ? t('history.displayedRowsMore', { from, to })
          : t('history.displayedRows', { from, to, count: total })
      }
    />
  )
}
