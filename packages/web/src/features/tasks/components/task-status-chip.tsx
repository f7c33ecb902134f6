import AlarmIcon from '@mui/icons-material/Alarm'
import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import ErrorIcon from '@mui/icons-material/Error'
import InfoIcon from '@mui/icons-material/Info'
import PauseCircleIcon from '@mui/icons-material/PauseCircle'
import PlayCircleIcon from '@mui/icons-material/PlayCircle'
import StopCircleIcon from '@mui/icons-material/StopCircle'
import Chip from '@mui/material/Chip'
import type { ReactElement } from 'react'
import { useTranslation } from 'react-i18next'
import { type LabelledStatus, labelledStatus, statusColor, statusIcon } from '../task-status'

const ICONS: Record<ReturnType<typeof statusIcon>, ReactElement> = {
  alarm: <AlarmIcon />,
  play: <PlayCircleIcon />,
  pause: <PauseCircleIcon />,
  check: <CheckCircleIcon />,
  info: <InfoIcon />,
  stop: <StopCircleIcon />,
  error: <ErrorIcon />,
}

/** A task's status with its label, icon and colour; rejected shows no label and no icon. */
export function TaskStatusChip({ status }: { status: string }) {
  const { t } = useTranslation('tasks')
  if (status === 'rejected') return null
  const labelled: LabelledStatus | null = labelledStatus(status)
  const icon = statusIcon(status)
  return (
    <Chip
      size="small"
      color={statusColor(status)}
      icon={ICONS[icon]}
      label={labelled ? t(`status.${labelled}`) : status}
      data-status={status}
      data-icon={icon}
    />
  )
}
