import { parseRunnerTags, type Runner } from '@flagman/contract'
import Box from '@mui/material/Box'
import Chip from '@mui/material/Chip'
import Link from '@mui/material/Link'
import Paper from '@mui/material/Paper'
import Switch from '@mui/material/Switch'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableContainer from '@mui/material/TableContainer'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { RowActions } from '../../../components/row-actions'
import { paths } from '../../../config/paths'
import { taskSearch } from '../../tasks/components/task-log-host'
import { RunnerStatus } from './runner-status'

export interface RunnersTableProps {
  runners: readonly Runner[]
  /** Whether the viewer may switch, edit and delete runners. */
  canManage: boolean
  /** The runner whose active switch is being saved. */
  pendingId?: number | null
  onToggle: (runner: Runner, active: boolean) => void
  onEdit: (runner: Runner) => void
  onDelete: (runner: Runner) => void
}

function Muted({ children }: { children: string }) {
  return (
    <Typography variant="body2" color="text.secondary" component="span">
      {children}
    </Typography>
  )
}

/** Runners with their state and the tasks they run; the same on the global and project pages. */
export function RunnersTable({
  runners,
  canManage,
  pendingId = null,
  onToggle,
  onEdit,
  onDelete,
}: RunnersTableProps) {
  const { t } = useTranslation('runners')
  return (
    <Paper variant="outlined">
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.active')}</TableCell>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.tags')}</TableCell>
              <TableCell>{t('table.webhook')}</TableCell>
              <TableCell>{t('table.maxParallelTasks')}</TableCell>
              <TableCell>{t('table.status')}</TableCell>
              <TableCell>{t('table.runningTasks')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {runners.map((runner) => {
              const tags = parseRunnerTags(runner.tag)
              return (
                <TableRow key={runner.id} hover data-runner-id={runner.id}>
                  <TableCell>
                    <Switch
                      checked={runner.active}
                      disabled={!canManage || pendingId === runner.id}
                      onChange={(event) => onToggle(runner, event.target.checked)}
                      slotProps={{
                        input: { 'aria-label': t('table.activeOf', { name: runner.name }) },
                      }}
                    />
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{runner.name}</TableCell>
                  <TableCell>
                    {tags.length > 0 ? (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                        {tags.map((tag) => (
                          <Chip key={tag} size="small" variant="outlined" label={tag} />
                        ))}
                      </Box>
                    ) : (
                      <Muted>{t('table.none')}</Muted>
                    )}
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all', maxWidth: 240 }}>
                    {runner.webhook ? runner.webhook : <Muted>{t('table.none')}</Muted>}
                  </TableCell>
                  <TableCell>
                    {runner.max_parallel_tasks > 0
                      ? runner.max_parallel_tasks
                      : t('table.unlimited')}
                  </TableCell>
                  <TableCell>
                    <RunnerStatus runner={runner} />
                  </TableCell>
                  <TableCell>
                    {runner.running_tasks.length > 0 ? (
                      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                        {runner.running_tasks.map((task) => (
                          <Link
                            key={task.task_id}
                            component={RouterLink}
                            to={`${paths.projectHistory.href(task.project_id)}${taskSearch(task.task_id)}`}
                            aria-label={t('table.openTask', { id: task.task_id })}
                          >
                            #{task.task_id}
                          </Link>
                        ))}
                      </Box>
                    ) : (
                      <Muted>{t('table.none')}</Muted>
                    )}
                  </TableCell>
                  {canManage ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      <RowActions
                        editLabel={t('table.edit', { name: runner.name })}
                        deleteLabel={t('table.delete', { name: runner.name })}
                        onEdit={() => onEdit(runner)}
                        onDelete={() => onDelete(runner)}
                      />
                    </TableCell>
                  ) : null}
                </TableRow>
              )
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  )
}
