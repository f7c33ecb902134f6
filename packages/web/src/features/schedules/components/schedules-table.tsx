import type { Schedule } from '@flagman/contract'
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
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { RowActions } from '../../../components/row-actions'
import { paths } from '../../../config/paths'
import { taskSearch } from '../../tasks/components/task-log-host'
import { useSchedulePreview } from '../api/preview-schedule'
import { useCronLocale } from '../utils/cron-text'
import { describeCron, formatInZone } from '../utils/describe-cron'

/** A schedule as the page lists it, with its template's name. */
export type ScheduleRow = Schedule & { tpl_name: string }

export interface SchedulesTableProps {
  projectId: number
  schedules: readonly ScheduleRow[]
  /** Whether the viewer may switch, edit and delete schedules. */
  canManage: boolean
  /** The schedule whose active switch is being saved. */
  pendingId?: number | null
  onToggle: (schedule: ScheduleRow, active: boolean) => void
  onEdit: (schedule: ScheduleRow) => void
  onDelete: (schedule: ScheduleRow) => void
}

function NextRun({ projectId, schedule }: { projectId: number; schedule: ScheduleRow }) {
  const { t, i18n } = useTranslation('schedules')
  const preview = useSchedulePreview(
    projectId,
    schedule.cron_format,
    schedule.timezone,
    schedule.active,
  )
  if (!schedule.active) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('table.paused')}
      </Typography>
    )
  }
  const next = preview.data?.next_runs[0]
  if (!next) return <>{preview.isPending ? '…' : '—'}</>
  return (
    <Tooltip
      title={t('table.inZone', {
        time: formatInZone(next, i18n.language, preview.data?.timezone),
        zone: preview.data?.timezone ?? '',
      })}
    >
      <span>{formatInZone(next, i18n.language)}</span>
    </Tooltip>
  )
}

function LastRun({ schedule }: { schedule: ScheduleRow }) {
  const { t, i18n } = useTranslation('schedules')
  const { last_run: run, last_miss: miss } = schedule
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, alignItems: 'flex-start' }}>
      {run ? (
        <span>
          {formatInZone(run.fired, i18n.language)}
          {run.task_id !== null ? (
            <>
              {' · '}
              <Link
                component={RouterLink}
                to={{ search: taskSearch(run.task_id) }}
                aria-label={t('table.openTask', { id: run.task_id })}
              >
                #{run.task_id}
              </Link>
            </>
          ) : null}
        </span>
      ) : (
        <Typography variant="body2" color="text.secondary">
          {t('table.never')}
        </Typography>
      )}
      {miss ? (
        <Tooltip title={t('table.missedAt', { time: formatInZone(miss.due, i18n.language) })}>
          <Chip
            size="small"
            color="warning"
            variant="outlined"
            label={
              miss.count > 1
                ? t('table.missedMany', { reason: t(`reasons.${miss.reason}`), n: miss.count })
                : t('table.missed', { reason: t(`reasons.${miss.reason}`) })
            }
          />
        </Tooltip>
      ) : null}
    </Box>
  )
}

export function SchedulesTable({
  projectId,
  schedules,
  canManage,
  pendingId = null,
  onToggle,
  onEdit,
  onDelete,
}: SchedulesTableProps) {
  const { t, i18n } = useTranslation('schedules')
  const cronLocale = useCronLocale(i18n.language)
  return (
    <Paper variant="outlined">
      <TableContainer tabIndex={canManage ? undefined : 0}>
        <Table size="small" aria-label={t('page.title')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('table.name')}</TableCell>
              <TableCell>{t('table.template')}</TableCell>
              <TableCell>{t('table.timing')}</TableCell>
              <TableCell>{t('table.nextRun')}</TableCell>
              <TableCell>{t('table.lastRun')}</TableCell>
              <TableCell>{t('table.active')}</TableCell>
              {canManage ? <TableCell align="right">{t('table.actions')}</TableCell> : null}
            </TableRow>
          </TableHead>
          <TableBody>
            {schedules.map((schedule) => {
              const commitCheck = schedule.repository_id !== null
              const description = describeCron(t, schedule.cron_format, i18n.language, cronLocale)
              return (
                <TableRow key={schedule.id} hover data-schedule-id={schedule.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>
                    {schedule.name}
                    {commitCheck ? (
                      <Tooltip title={t('table.commitCheckHint')}>
                        <Chip
                          size="small"
                          variant="outlined"
                          label={t('table.commitCheck')}
                          sx={{ ml: 1 }}
                        />
                      </Tooltip>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <Link
                      component={RouterLink}
                      to={paths.projectTemplate.href(projectId, schedule.template_id)}
                    >
                      {schedule.tpl_name}
                    </Link>
                  </TableCell>
                  <TableCell>
                    <Box component="code" sx={{ whiteSpace: 'nowrap' }}>
                      {schedule.cron_format}
                    </Box>
                    <Typography variant="body2" color="text.secondary">
                      {description === schedule.cron_format.trim() ? null : description}
                      {schedule.timezone ? ` (${schedule.timezone})` : null}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <NextRun projectId={projectId} schedule={schedule} />
                  </TableCell>
                  <TableCell>
                    <LastRun schedule={schedule} />
                  </TableCell>
                  <TableCell>
                    <Switch
                      checked={schedule.active}
                      disabled={!canManage || commitCheck || pendingId === schedule.id}
                      onChange={(event) => onToggle(schedule, event.target.checked)}
                      slotProps={{
                        input: { 'aria-label': t('table.activeOf', { name: schedule.name }) },
                      }}
                    />
                  </TableCell>
                  {canManage ? (
                    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                      {commitCheck ? null : (
                        <RowActions
                          editLabel={t('table.edit', { name: schedule.name })}
                          deleteLabel={t('table.delete', { name: schedule.name })}
                          onEdit={() => onEdit(schedule)}
                          onDelete={() => onDelete(schedule)}
                        />
                      )}
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
