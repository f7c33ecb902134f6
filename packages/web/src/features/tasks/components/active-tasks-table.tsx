import type { ActiveTask } from '@flagman/contract'
import StopCircleIcon from '@mui/icons-material/StopCircle'
import IconButton from '@mui/material/IconButton'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { useTask, useTaskTemplate } from '../api/tasks'
import { TaskDuration } from './task-duration'
import { taskSearch } from './task-log-host'
import { TaskPagination, useTaskPages } from './task-pages'
import { TaskStatusChip } from './task-status-chip'

export function locationKey(task: ActiveTask): { key: 'queue' | 'runner' | 'local'; id?: number } {
  if (task.location === 'queue') return { key: 'queue' }
  if (task.location === 'runner' || task.runner_id) return { key: 'runner', id: task.runner_id }
  return { key: 'local' }
}

/**
 * What the active-task row itself does not carry: the task's template (name, linked) and how
 * long it has run. Read per shown row (20 at most), again whenever the row's status changes.
 */
function useActiveTaskDetails(task: ActiveTask) {
  const detail = useTask(task.project_id, task.task_id)
  const { refetch } = detail
  const known = detail.data?.status
  useEffect(() => {
    if (known !== undefined && known !== task.status) void refetch()
  }, [known, task.status, refetch])
  const template = useTaskTemplate(task.project_id, detail.data?.template_id)
  return { task: detail.data, template: template.data }
}

function TemplateCell({ task }: { task: ActiveTask }) {
  const details = useActiveTaskDetails(task)
  return (
    <>
      <TableCell>
        {details.template ? (
          <Link
            component={RouterLink}
            to={paths.projectTemplate.href(task.project_id, details.template.id)}
          >
            {details.template.name}
          </Link>
        ) : (
          '—'
        )}
      </TableCell>
      <TableCell>{task.username || '—'}</TableCell>
      <TableCell>
        <TaskDuration start={details.task?.start ?? null} end={details.task?.end ?? null} />
      </TableCell>
    </>
  )
}

/** Tasks of every project that are queued or running; 20 to a page. */
export function ActiveTasksTable({
  tasks,
  projectName,
  onStop,
  stopping,
}: {
  tasks: ActiveTask[]
  projectName: (projectId: number) => string
  onStop: (task: ActiveTask) => void
  stopping: boolean
}) {
  const { t } = useTranslation('tasks')
  const pages = useTaskPages(tasks)
  const rows = pages.rows
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small" aria-label={t('active.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('active.task')}</TableCell>
              <TableCell>{t('active.project')}</TableCell>
              <TableCell>{t('active.template')}</TableCell>
              <TableCell>{t('active.username')}</TableCell>
              <TableCell>{t('active.duration')}</TableCell>
              <TableCell>{t('active.status')}</TableCell>
              <TableCell>{t('active.location')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((task) => {
              const location = locationKey(task)
              return (
                <TableRow key={task.task_id} data-task-id={task.task_id}>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={`${paths.projectHistory.href(task.project_id)}${taskSearch(task.task_id)}`}
                    >
                      #{task.task_id}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Link component={RouterLink} to={paths.projectHistory.href(task.project_id)}>
                      {projectName(task.project_id)}
                    </Link>
                  </TableCell>
                  <TemplateCell task={task} />
                  <TableCell>
                    <TaskStatusChip status={task.status} />
                  </TableCell>
                  <TableCell>
                    {location.key === 'runner'
                      ? t('active.runner', { id: location.id ?? '' })
                      : t(`active.${location.key}`)}
                    {location.key === 'queue' && task.queue_reason ? (
                      // Why it waits, e.g. no active runner carries the template's tag.
                      <Typography variant="body2" color="text.secondary">
                        {task.queue_reason}
                      </Typography>
                    ) : null}
                  </TableCell>
                  <TableCell align="right">
                    <IconButton
                      color="error"
                      disabled={stopping}
                      aria-label={t('active.stop', { id: task.task_id })}
                      onClick={() => onStop(task)}
                    >
                      <StopCircleIcon />
                    </IconButton>
                  </TableCell>
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TaskPagination {...pages} />
    </Paper>
  )
}
