import type { User } from '@flagman/contract'
import { useTranslation } from 'react-i18next'
import { ConfirmDialog } from '../../../components/confirm-dialog'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useDisableTotp } from '../api/totp'

export interface RemoveTwoFactorDialogProps {
  /** The user whose second factor is removed; null keeps the dialog closed. */
  user: User | null
  onClose: () => void
}

/** Lets an administrator turn off a user's two-factor sign-in, after asking. */
export function RemoveTwoFactorDialog({ user, onClose }: RemoveTwoFactorDialogProps) {
  const { t } = useTranslation('users')
  const { showMessage } = useSnackbar()
  const remove = useDisableTotp()

  const close = () => {
    remove.reset()
    onClose()
  }

  return (
    <ConfirmDialog
      open={user !== null}
      title={t('removeTwoFactor.title')}
      text={t('removeTwoFactor.text', { name: user?.name ?? '' })}
      confirmLabel={t('removeTwoFactor.confirm')}
      pending={remove.isPending}
      error={remove.error}
      onClose={close}
      onConfirm={() => {
        if (!user?.totp) return
        remove.mutate(
          { user, totpId: user.totp.id },
          {
            onSuccess: (removed) => {
              showMessage(t('removeTwoFactor.done', { name: removed.name }))
              close()
            },
          },
        )
      }}
    />
  )
}
