import type { User } from '@flagman/contract'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import Typography from '@mui/material/Typography'
import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { infoQueryOptions } from '../../system/api/get-info'
import { useUpdateUser } from '../api/update-user'
import { ChangePasswordForm } from './change-password-form'
import { TwoFactorSection } from './two-factor-section'
import { toUserBody, UserForm } from './user-form'

export interface EditAccountDialogProps {
  open: boolean
  /** The signed-in user. */
  user: User
  onClose: () => void
}

/** The signed-in user's own profile, with a separate form to change the password. */
export function EditAccountDialog({ open, user, onClose }: EditAccountDialogProps) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const update = useUpdateUser()
  // Two-factor sign-in is offered only when the server has it on.
  const info = useQuery({ ...infoQueryOptions(), enabled: open })
  const totpOffered = Boolean(info.data?.auth_methods.totp)

  const close = () => {
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      title={t('account.title')}
      actions={
        <>
          <Button onClick={close} disabled={update.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={update.isPending}>
            {tc('actions.save')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={update.error} />
      {open ? (
        <>
          <UserForm
            id={formId}
            user={user}
            viewerIsAdmin={user.admin}
            isSelf
            showPassword={false}
            onSubmit={(values) =>
              update.mutate(
                { userId: user.id, body: toUserBody(values, user) },
                {
                  onSuccess: () => {
                    showMessage(t('messages.saved', { name: values.name }))
                    close()
                  },
                },
              )
            }
          />
          <Divider sx={{ my: 2 }} />
          <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5, fontWeight: 600 }}>
            {t('account.changePassword')}
          </Typography>
          <ChangePasswordForm userId={user.id} external={user.external} />
          {totpOffered ? (
            <>
              <Divider sx={{ my: 2 }} />
              <TwoFactorSection user={user} />
            </>
          ) : null}
        </>
      ) : null}
    </AppDialog>
  )
}
