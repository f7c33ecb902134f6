import ArrowBackIcon from '@mui/icons-material/ArrowBack'
import PlaylistPlayIcon from '@mui/icons-material/PlaylistPlay'
import { activeTaskRoutes, type ActiveTask } from '@flagman/contract'
import Box from '@mui/material/Box'
import IconButton from '@mui/material/IconButton'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router-dom'
import { EmptyState } from '../../components/empty-state'
import { AdminOnly } from '../../components/admin-only'
import { ErrorAlert } from '../../components/error-alert'
import { LoadingState } from '../../components/loading-state'
import { PageHeader } from '../../components/page-header'
import { paths } from '../../config/paths'
import { ActiveTasksTable } from '../../features/tasks/components/active-tasks-table'
import { useRealtime } from '../../hooks/use-realtime'
import { useActiveTasks } from '../../features/tasks/api/tasks'
import { taskKeys } from '../../features/tasks/api/tasks.query-keys'
import { api } from '../../lib/api-client'
import { useSession } from '../session'

export function ActiveTasksRoute() {
  const { user } = useSession()
  if (!user.admin) return <AdminOnly />
  return <ActiveTasksPage />
}

function ActiveTasksPage() {
  const { t } = useTranslation('tasks')
  const { t: tc } = useTranslation()
  const { projects } = useSession()
  const queryClient = useQueryClient()
  const tasks = useActiveTasks()
  const stop = useMutation({
    mutationFn: (task: ActiveTask) =>
      api.call(activeTaskRoutes.stop, { params: { task_id: task.task_id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: taskKeys.active() }),
  })
  useRealtime((message) => {
    if (message.type === 'update')
      void queryClient.invalidateQueries({ queryKey: taskKeys.active() })
  })
  const projectName = (id: number) => projects.find((p) => p.id === id)?.name ?? `#${id}`

  return (
    <Box component="main">
      <PageHeader
        title={t('active.title')}
        start={
          <IconButton
            component={Link}
            to={paths.root.href()}
            edge="start"
            aria-label={tc('actions.back')}
          >
            <ArrowBackIcon />
          </IconButton>
        }
      />
      <Box sx={{ p: { xs: 1, sm: 3 } }}>
        <ErrorAlert error={tasks.error ?? stop.error} />
        {tasks.data ? (
          tasks.data.length === 0 ? (
            <EmptyState icon={<PlaylistPlayIcon />} title={t('active.emptyTitle')} />
          ) : (
            <ActiveTasksTable
              tasks={tasks.data}
              projectName={projectName}
              onStop={(task) => stop.mutate(task)}
              stopping={stop.isPending}
            />
          )
        ) : tasks.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
    </Box>
  )
}
