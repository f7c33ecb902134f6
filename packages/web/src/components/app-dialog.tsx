import Dialog from '@mui/material/Dialog'
import DialogActions from '@mui/material/DialogActions'
import DialogContent from '@mui/material/DialogContent'
import DialogTitle from '@mui/material/DialogTitle'
import { type ReactNode, useId } from 'react'
import { DIALOG_WIDTH } from '../config/constants'

export interface AppDialogProps {
  open: boolean
  title: ReactNode
  onClose: () => void
  children: ReactNode
  actions?: ReactNode
  width?: number
}

/** A dialog of the console's default width that still fits a 375 px screen. */
export function AppDialog({
  open,
  title,
  onClose,
  children,
  actions,
  width = DIALOG_WIDTH,
}: AppDialogProps) {
  const titleId = useId()
  return (
    <Dialog
      open={open}
      onClose={onClose}
      aria-labelledby={titleId}
      maxWidth={false}
      slotProps={{ paper: { sx: { width, maxWidth: 'calc(100% - 32px)', m: 2 } } }}
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>{children}</DialogContent>
      {actions ? <DialogActions sx={{ px: 3, pb: 2 }}>{actions}</DialogActions> : null}
    </Dialog>
  )
}
