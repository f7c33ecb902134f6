import Chip from '@mui/material/Chip'
import { useTranslation } from 'react-i18next'
import { labelledStatus, statusColor } from '../task-status'

export function TaskStatusChip({ status }: { status: string }) {
  const { t } = useTranslation('tasks')
  const labelled = labelledStatus(status)
  if (status === 'rejected') return null
  return (
    <Chip
      size="small"
      color={statusColor(status)}
      label={labelled ? t(`status.${labelled}`) : status}
      data-status={status}
    />
  )
}
