import TablePagination from '@mui/material/TablePagination'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { TABLE_ROWS_PER_PAGE } from '../../../config/constants'

/**
 * Client-side paging of a task table: the rows of the page shown and the page kept in range
 * when the list shrinks under it (a live update can remove tasks).
 */
export function useTaskPages<T>(tasks: readonly T[]) {
  const [page, setPage] = useState(0)
  const lastPage = Math.max(0, Math.ceil(tasks.length / TABLE_ROWS_PER_PAGE) - 1)
  const shown = Math.min(page, lastPage)
  const rows = tasks.slice(shown * TABLE_ROWS_PER_PAGE, (shown + 1) * TABLE_ROWS_PER_PAGE)
  return { page: shown, setPage, rows, count: tasks.length }
}

/** Page controls of a task table; none while everything fits on one page. */
export function TaskPagination({
  page,
  setPage,
  count,
}: Pick<ReturnType<typeof useTaskPages>, 'page' | 'setPage' | 'count'>) {
  const { t } = useTranslation('tasks')
  if (count <= TABLE_ROWS_PER_PAGE) return null
  return (
    <TablePagination
      component="div"
      count={count}
      page={page}
      rowsPerPage={TABLE_ROWS_PER_PAGE}
      rowsPerPageOptions={[TABLE_ROWS_PER_PAGE]}
      onPageChange={(_, next) => setPage(next)}
      labelDisplayedRows={({ from, to, count: total }) =>
        t('history.displayedRows', { from, to, count: total })
      }
    />
  )
}
