/** Colour of a status chip; an unknown status counts as an error. */
export type StatusColor = 'default' | 'primary' | 'success' | 'error' | 'warning'

const COLORS: Record<string, StatusColor> = {
  waiting: 'default',
  starting: 'warning',
  waiting_confirmation: 'warning',
  confirmed: 'warning',
  rejected: 'default',
  running: 'primary',
  stopping: 'default',
  stopped: 'default',
  success: 'success',
  error: 'error',
}

export function statusColor(status: string): StatusColor {
  return COLORS[status] ?? 'error'
}

/** Icon of a status chip; an unknown status shows the error icon. */
export type StatusIcon = 'alarm' | 'play' | 'pause' | 'check' | 'info' | 'stop' | 'error'

const ICONS: Record<string, StatusIcon> = {
  waiting: 'alarm',
  starting: 'play',
  running: 'play',
  waiting_confirmation: 'pause',
  confirmed: 'check',
  success: 'check',
  error: 'info',
  stopping: 'stop',
  stopped: 'stop',
}

export function statusIcon(status: string): StatusIcon {
  return ICONS[status] ?? 'error'
}

export const LABELLED_STATUSES = [
  'waiting',
  'starting',
  'running',
  'success',
  'error',
  'stopping',
  'stopped',
  'confirmed',
  'waiting_confirmation',
] as const
export type LabelledStatus = (typeof LABELLED_STATUSES)[number]

/** Statuses with a label; rejected shows none, an unknown status shows itself. */
export function labelledStatus(status: string): LabelledStatus | null {
  return (LABELLED_STATUSES as readonly string[]).includes(status)
    ? (status as LabelledStatus)
    : null
}

const STOPPABLE = [
  'running',
  'stopping',
  'waiting',
  'starting',
  'waiting_confirmation',
  'confirmed',
  'rejected',
]

export interface TaskActions {
  stop: boolean
  /** In stopping the stop button reads Force Stop and sends force=true. */
  force: boolean
  confirm: boolean
  reject: boolean
}

export function taskActions(status: string): TaskActions {
  const waitingConfirmation = status === 'waiting_confirmation'
  return {
    stop: STOPPABLE.includes(status),
    force: status === 'stopping',
    confirm: waitingConfirmation,
    reject: waitingConfirmation,
  }
}
