import type { TaskStartTimings as Timings } from '@flagman/contract'
import Box from '@mui/material/Box'
import Typography from '@mui/material/Typography'
import { useTranslation } from 'react-i18next'
import { useFormat } from '../../../lib/format'

/** The phases in the order they happen, with the key of their label. */
const PHASES = [
  ['queued_ms', 'queued'],
  ['building_job_ms', 'building_job'],
  ['writing_files_ms', 'writing_files'],
  ['preparing_repository_ms', 'preparing_repository'],
  ['spawning_ms', 'spawning'],
  ['runner_ms', 'runner'],
] as const

/**
 * Where the task's start went: the total from creation to its process running, and each
 * phase of it (queue, job, files, repository, process start). Nothing before the task starts.
 */
export function TaskStartTimings({ timings }: { timings: Timings | null | undefined }) {
  const { t } = useTranslation('tasks')
  const format = useFormat()
  if (!timings) return null
  const ms = (value: number) => t('startTimings.ms', { value: format.number(value) })
  const phases = PHASES.flatMap(([field, label]) => {
    const value = timings[field]
    return value === undefined ? [] : [`${t(`startTimings.${label}`)} ${ms(value)}`]
  })
  const detail = phases.join(' · ')
  return (
    <Box sx={{ minWidth: 0 }} data-testid="task-start-timings">
      <Typography variant="caption" color="text.secondary" component="div">
        {t('startTimings.title')}
      </Typography>
      <Typography variant="body2" title={detail}>
        {ms(timings.total_ms)}
      </Typography>
      <Typography variant="caption" color="text.secondary" component="div">
        {detail}
      </Typography>
    </Box>
  )
}
