import CheckCircleIcon from '@mui/icons-material/CheckCircle'
import CancelIcon from '@mui/icons-material/Cancel'
import ScheduleIcon from '@mui/icons-material/Schedule'
import StopCircleIcon from '@mui/icons-material/StopCircle'
import Box from '@mui/material/Box'
import { TaskStatusLabel } from '../../tasks/components/task-status-label'

/** A task status as lists show it: success, error, stopped, anything else waiting. */
export function TaskStatus({ status }: { status: string }) {
  const icon =
    status === 'success' ? (
      <CheckCircleIcon fontSize="small" color="success" />
    ) : status === 'error' ? (
      <CancelIcon fontSize="small" color="error" />
    ) : status === 'stopped' ? (
      <StopCircleIcon fontSize="small" color="warning" />
    ) : (
      <ScheduleIcon fontSize="small" color="disabled" />
    )
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {icon}
      <TaskStatusLabel status={status} />
    </Box>
  )
}
