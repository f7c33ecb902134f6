import { PREVIEW_RUN_COUNT } from '@flagman/contract'
import Box from '@mui/material/Box'
import LinearProgress from '@mui/material/LinearProgress'
import Table from '@mui/material/Table'
import TableBody from '@mui/material/TableBody'
import TableCell from '@mui/material/TableCell'
import TableHead from '@mui/material/TableHead'
import TableRow from '@mui/material/TableRow'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { getErrorText } from '../../../lib/error-text'
import { useSchedulePreview } from '../api/preview-schedule'
import { browserTimeZone, formatInZone } from '../utils/describe-cron'
import { useDebouncedValue } from '../utils/use-debounced-value'

export interface SchedulePreviewTableProps {
  projectId: number
  /** Empty: nothing to preview. */
  cron: string
  /** Empty: the server's default zone. */
  timezone: string
}

/**
 * The next times the server would run the expression, in the schedule's zone and in the
 * browser's, asked for once typing pauses.
 */
export function SchedulePreviewTable({ projectId, cron, timezone }: SchedulePreviewTableProps) {
  const { t, i18n } = useTranslation('schedules')
  const titleId = useId()
  const input = {
    cron: useDebouncedValue(cron.trim()),
    timezone: useDebouncedValue(timezone),
  }
  const preview = useSchedulePreview(projectId, input.cron, input.timezone)
  const localZone = browserTimeZone()
  if (input.cron === '') return null
  const data = preview.data

  return (
    <Box component="section" aria-labelledby={titleId}>
      <Typography id={titleId} variant="subtitle2" component="h3">
        {t('preview.title', { n: PREVIEW_RUN_COUNT })}
      </Typography>
      {preview.isFetching && !data ? <LinearProgress aria-label={t('preview.loading')} /> : null}
      {preview.error ? (
        <Typography variant="body2" color="error">
          {getErrorText(preview.error)}
        </Typography>
      ) : null}
      {data && !preview.error ? (
        data.next_runs.length === 0 ? (
          <Typography variant="body2" color="text.secondary">
            {t('preview.none')}
          </Typography>
        ) : (
          <Table size="small" aria-labelledby={titleId}>
            <TableHead>
              <TableRow>
                <TableCell>{t('preview.scheduleZone', { zone: data.timezone })}</TableCell>
                <TableCell>{t('preview.browserZone', { zone: localZone })}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {data.next_runs.map((time) => (
                <TableRow key={time}>
                  <TableCell>{formatInZone(time, i18n.language, data.timezone)}</TableCell>
                  <TableCell>{formatInZone(time, i18n.language, localZone)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )
      ) : null}
    </Box>
  )
}
