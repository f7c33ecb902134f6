import HistoryIcon from '@mui/icons-material/History'
import { useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { TasksTable } from './tasks-table'
import { TemplateLogSearch } from './template-log-search'
import { useRealtime } from '../../../hooks/use-realtime'
import { useTemplateTasks } from '../api/tasks'
import { taskKeys } from '../api/tasks.query-keys'

/** The newest tasks of a template, refreshed when one of them changes. */
export function TemplateTasksTab({
  projectId,
  templateId,
}: {
  projectId: number
  templateId: number
}) {
  const { t } = useTranslation('tasks')
  const queryClient = useQueryClient()
  const tasks = useTemplateTasks(projectId, templateId)
  useRealtime((message) => {
    if (message.type === 'update' && message.template_id === templateId) {
      void queryClient.invalidateQueries({
        queryKey: [...taskKeys.list(projectId), 'template', templateId],
      })
    }
  })
  if (tasks.isPending) return <LoadingState />
  if (tasks.error) return <ErrorAlert error={tasks.error} />
  if (tasks.data.length === 0) {
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
      <TemplateLogSearch projectId={projectId} templateId={templateId} />
      <TasksTable tasks={tasks.data} />
    </>
  )
}
