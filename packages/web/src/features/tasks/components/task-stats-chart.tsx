import Box from '@mui/material/Box'
import MenuItem from '@mui/material/MenuItem'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { lazy, Suspense, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useTeam } from '../../team/api/get-team'
import { useTemplateStats } from '../api/tasks'
import { rangeStart, STATS_RANGES, type StatsRange, statsSeries, statsTotals } from '../task-stats'

const TaskStatsLine = lazy(() => import('./task-stats-line'))

/** Height of the chart area in pixels. */
const CHART_HEIGHT = 260
const ALL_USERS = 'all'

/** Task statuses per day of a template, for a date range and optionally one user. */
export function TaskStatsChart({
  projectId,
  templateId,
}: {
  projectId: number
  templateId: number
}) {
  const { t } = useTranslation('tasks')
  const [range, setRange] = useState<StatsRange>('week')
  const [user, setUser] = useState<string>(ALL_USERS)
  // The range's first day is fixed when the range is picked, so the query key stays stable.
  const start = useMemo(() => rangeStart(range, new Date()), [range])
  const team = useTeam(projectId)
  const stats = useTemplateStats(
    projectId,
    templateId,
    start,
    user === ALL_USERS ? null : Number(user),
  )
  const series = useMemo(
    () => (stats.data ? statsSeries(stats.data, range, new Date()) : null),
    [stats.data, range],
  )
  const totals = series ? statsTotals(series) : null

  return (
    <Paper variant="outlined" sx={{ p: 2 }}>
      <Stack
        direction={{ xs: 'column', sm: 'row' }}
        spacing={2}
        sx={{ mb: 2, alignItems: { sm: 'center' } }}
      >
        <Typography variant="subtitle1" component="h2" sx={{ flexGrow: 1 }}>
          {t('stats.title')}
        </Typography>
        <TextField
          select
          size="small"
          label={t('stats.range')}
          value={range}
          onChange={(event) => setRange(event.target.value as StatsRange)}
          sx={{ minWidth: 160 }}
        >
          {(Object.keys(STATS_RANGES) as StatsRange[]).map((key) => (
            <MenuItem key={key} value={key}>
              {t(`stats.ranges.${key}`)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          label={t('stats.user')}
          value={user}
          onChange={(event) => setUser(event.target.value)}
          sx={{ minWidth: 180 }}
        >
          <MenuItem value={ALL_USERS}>{t('stats.allUsers')}</MenuItem>
          {(team.data ?? []).map((member) => (
            <MenuItem key={member.id} value={String(member.id)}>
              {member.name || member.username}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {stats.error ? <ErrorAlert error={stats.error} /> : null}
      <Box sx={{ height: CHART_HEIGHT, position: 'relative' }} data-testid="task-stats">
        {series && totals ? (
          <Suspense fallback={<LoadingState />}>
            <TaskStatsLine
              series={series}
              label={t('stats.summary', {
                success: totals.success,
                error: totals.error,
                stopped: totals.stopped,
              })}
            />
          </Suspense>
        ) : stats.isPending ? (
          <LoadingState />
        ) : null}
      </Box>
    </Paper>
  )
}
