import Box from '@mui/material/Box'
import Link from '@mui/material/Link'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink } from 'react-router-dom'
import { taskSearch } from '../../tasks/components/task-log-host'
import { useScheduleRuns } from '../api/preview-schedule'
import { formatInZone } from '../utils/describe-cron'

/** How many of the recorded due times the edit dialog lists. */
const SHOWN_RUNS = 5

/** The latest due times of a schedule and what became of them. */
export function ScheduleRuns({ projectId, scheduleId }: { projectId: number; scheduleId: number }) {
  const { t, i18n } = useTranslation('schedules')
  const titleId = useId()
  const runs = useScheduleRuns(projectId, scheduleId)
  if (!runs.data || runs.data.length === 0) return null
  return (
    <Box component="section" aria-labelledby={titleId} sx={{ mt: 2 }}>
      <Typography id={titleId} variant="subtitle2" component="h3">
        {t('runs.title')}
      </Typography>
      <Table size="small" aria-labelledby={titleId}>
        <TableHead>
          <TableRow>
            <TableCell>{t('runs.due')}</TableCell>
            <TableCell>{t('runs.outcome')}</TableCell>
            <TableCell>{t('runs.task')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {runs.data.slice(0, SHOWN_RUNS).map((run) => (
            <TableRow key={run.id}>
              <TableCell>{formatInZone(run.due, i18n.language)}</TableCell>
              <TableCell>
                {t(`outcomes.${run.outcome}`)}
                {run.reason ? ` (${t(`reasons.${run.reason}`)})` : null}
                {run.count > 1 ? ` ×${run.count}` : null}
              </TableCell>
              <TableCell>
                {run.task_id !== null ? (
                  <Link component={RouterLink} to={{ search: taskSearch(run.task_id) }}>
                    #{run.task_id}
                  </Link>
                ) : (
                  '—'
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  )
}
