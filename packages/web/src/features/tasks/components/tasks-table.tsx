import type { TaskWithTemplate } from '@flagman/contract'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { useFormat } from '../../../lib/format'
import { useTaskOriginNames } from '../api/task-origins'
import { TaskDuration } from './task-duration'
import { TaskOrigin } from './task-origin'
import { taskSearch } from './task-log-host'
import { TaskPagination, useTaskPages, type MoreTasks } from './task-pages'
import { TaskStatusChip } from './task-status-chip'

/** The version a task built, or for a deploy the version of the build it deployed. */
export function taskVersion(task: TaskWithTemplate): string | null {
  return task.version ?? task.build_task?.version ?? null
}

/**
 * A project's tasks, newest first, 20 to a page; the task number opens its log. With `more`,
 * `tasks` is the loaded part of the history and older tasks are loaded as the pages go back.
 */
export function TasksTable({ tasks, more }: { tasks: TaskWithTemplate[]; more?: MoreTasks }) {
  const { t } = useTranslation('tasks')
  const format = useFormat()
  const pages = useTaskPages(tasks, more)
  const rows = pages.rows
  const projectId = rows[0]?.project_id ?? 0
  const originNames = useTaskOriginNames(projectId, {
    integrations: rows.some((task) => task.integration_id !== null && !task.user_name),
    schedules: rows.some((task) => task.schedule_id !== null && !task.user_name),
  })
  return (
    <Paper variant="outlined">
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('history.task')}</TableCell>
              <TableCell>{t('history.template')}</TableCell>
              <TableCell>{t('history.status')}</TableCell>
              <TableCell>{t('history.version')}</TableCell>
              <TableCell>{t('history.user')}</TableCell>
              <TableCell>{t('history.start')}</TableCell>
              <TableCell>{t('history.duration')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((task) => (
              <TableRow key={task.id} data-task-id={task.id}>
                <TableCell>
                  <Link component={RouterLink} to={{ search: taskSearch(task.id) }}>
                    #{task.id}
                  </Link>
                </TableCell>
                <TableCell>
                  <Link
                    component={RouterLink}
                    to={paths.projectTemplate.href(task.project_id, task.template_id)}
                  >
                    {task.tpl_alias}
                  </Link>
                </TableCell>
                <TableCell>
                  <TaskStatusChip status={task.status} />
                </TableCell>
                <TableCell>{taskVersion(task) ?? '—'}</TableCell>
                <TableCell>
                  <TaskOrigin task={task} names={originNames} />
                </TableCell>
                <TableCell>{format.dateTime(task.start ?? task.created)}</TableCell>
                <TableCell>
                  <TaskDuration start={task.start} end={task.end} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <TaskPagination {...pages} />
    </Paper>
  )
}
