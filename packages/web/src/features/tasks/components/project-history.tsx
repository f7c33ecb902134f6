import HistoryIcon from '@mui/icons-material/History'
import { useCallback, useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { allRows } from '../../../lib/keyset-pages'
import { useProjectTasks } from '../api/tasks'
import { TasksTable } from './tasks-table'

/**
 * A project's task history. The newest page is loaded first and older ones as the table
 * pages back, so the page opens as fast on a history of a million tasks as on an empty one.
 */
export function ProjectHistory({ projectId }: { projectId: number }) {
  const { t } = useTranslation('tasks')
  const tasks = useProjectTasks(projectId)
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = tasks
  const loadMore = useCallback(() => {
    if (!isFetchingNextPage) void fetchNextPage()
  }, [isFetchingNextPage, fetchNextPage])
  const rows = useMemo(() => allRows(tasks.data), [tasks.data])
  if (tasks.isPending) return <LoadingState />
  if (!tasks.data) return <ErrorAlert error={tasks.error} />
  if (rows.length === 0) {
    return (
      <EmptyState
        icon={<HistoryIcon />}
        title={t('history.emptyTitle')}
        text={t('history.emptyText')}
      />
    )
  }
  return (
    <>
      {/* A page of older tasks that failed to load leaves the loaded ones in place. */}
      <ErrorAlert error={tasks.error} />
      <TasksTable tasks={rows} more={{ hasMore: hasNextPage, loadMore }} />
    </>
  )
}
