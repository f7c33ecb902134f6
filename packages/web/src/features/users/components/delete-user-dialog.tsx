import type { User } from '@flagman/contract'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useDeleteUser } from '../api/delete-user'

export interface DeleteUserDialogProps {
  user: User | null
  onClose: () => void
  onDeleted?: (user: User) => void
}

export function DeleteUserDialog({ user, onClose, onDeleted }: DeleteUserDialogProps) {
  const { t } = useTranslation('users')
  const { showMessage } = useSnackbar()
  const remove = useDeleteUser()

  const close = () => {
    remove.reset()
    onClose()
  }

  return (
    <ConfirmDialog
      open={user !== null}
      title={t('delete.title')}
      text={t('delete.text', { name: user?.name ?? '' })}
      pending={remove.isPending}
      error={remove.error}
      onClose={close}
      onConfirm={() => {
        if (!user) return
        remove.mutate(user, {
          onSuccess: (deleted) => {
            showMessage(t('messages.deleted', { name: deleted.name }))
            close()
            onDeleted?.(deleted)
          },
        })
      }}
    />
  )
}
