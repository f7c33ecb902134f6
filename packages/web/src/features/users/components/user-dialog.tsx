import type { User } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateUser } from '../api/create-user'
import { useUpdateUser } from '../api/update-user'
import { toUserBody, UserForm } from './user-form'

export interface UserDialogProps {
  open: boolean
  /** The user to edit; `null` creates a new one. */
  user: User | null
  viewerIsAdmin: boolean
  viewerId: number
  onClose: () => void
}

export function UserDialog({ open, user, viewerIsAdmin, viewerId, onClose }: UserDialogProps) {
  const { t } = useTranslation('users')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateUser()
  const update = useUpdateUser()
  const mutation = user ? update : create

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      title={user ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {user ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <UserForm
          key={user?.id ?? 'new'}
          id={formId}
          user={user}
          viewerIsAdmin={viewerIsAdmin}
          isSelf={user?.id === viewerId}
          // Users change their own password in Edit account, where they give the current one.
          showPassword={user?.id !== viewerId}
          onSubmit={(values) => {
            const body = toUserBody(values, user)
            if (user) {
              update.mutate(
                { userId: user.id, body },
                {
                  onSuccess: () => {
                    showMessage(t('messages.saved', { name: values.name }))
                    close()
                  },
                },
              )
            } else {
              create.mutate(body, {
                onSuccess: (created) => {
                  showMessage(t('messages.created', { name: created.name }))
                  close()
                },
              })
            }
          }}
        />
      ) : null}
    </AppDialog>
  )
}
