import Button from '@mui/material/Button'
import DialogContentText from '@mui/material/DialogContentText'
import { type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from './app-dialog'
import { ErrorAlert } from './error-alert'

export interface ConfirmDialogProps {
  open: boolean
  title: ReactNode
  text: ReactNode
  confirmLabel?: string
  onConfirm: () => void
  onClose: () => void
  pending?: boolean
  error?: unknown
  destructive?: boolean
}

/** Asks before an action that cannot be undone, such as every delete. */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  onConfirm,
  onClose,
  pending = false,
  error,
  destructive = true,
}: ConfirmDialogProps) {
  const { t } = useTranslation()
  return (
    <AppDialog
      open={open}
      title={title}
      onClose={onClose}
      actions={
        <>
          <Button onClick={onClose} disabled={pending}>
            {t('actions.cancel')}
          </Button>
          <Button
            onClick={onConfirm}
            color={destructive ? 'error' : 'primary'}
            variant="contained"
            loading={pending}
          >
            {confirmLabel ?? t('actions.delete')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={error} />
      <DialogContentText>{text}</DialogContentText>
    </AppDialog>
  )
}
