import HistoryIcon from '@mui/icons-material/History'
import Box from '@mui/material/Box'
import { useTranslation } from 'react-i18next'
import { Navigate } from 'react-router-dom'
import { EmptyState } from '../../../components/empty-state'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { paths } from '../../../config/paths'
import { TasksTable } from '../../../features/tasks/components/tasks-table'
import { useProjectTasks } from '../../../features/tasks/api/tasks'
import { DashboardHeader } from '../../layouts/dashboard-header'
import { useCurrentProject } from '../../project-context'

export function HistoryRoute() {
  const { project } = useCurrentProject()
  // Subscription projects have no task history; their team page stands in.
  if (project.type === 'premium')
    return <Navigate to={paths.projectTeam.href(project.id)} replace />
  return (
    <>
      <DashboardHeader tab="history" />
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        <History projectId={project.id} />
      </Box>
    </>
  )
}

function History({ projectId }: { projectId: number }) {
  const { t } = useTranslation('tasks')
  const tasks = useProjectTasks(projectId)
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
  return <TasksTable tasks={tasks.data} />
}
