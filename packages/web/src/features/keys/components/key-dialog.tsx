import type { AccessKey } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateKey } from '../api/create-key'
import { useUpdateKey } from '../api/update-key'
import { KeyForm, toCreateKeyBody, toUpdateKeyBody } from './key-form'

export interface KeyDialogProps {
  open: boolean
  projectId: number
  /** The key to edit; `null` creates a new one. */
  keyItem: AccessKey | null
  onClose: () => void
}

export function KeyDialog({ open, projectId, keyItem, onClose }: KeyDialogProps) {
  const { t } = useTranslation('keys')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateKey(projectId)
  const update = useUpdateKey(projectId)
  const mutation = keyItem ? update : create

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={520}
      title={keyItem ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {keyItem ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <KeyForm
          key={keyItem?.id ?? 'new'}
          id={formId}
          keyItem={keyItem}
          onSubmit={(values) => {
            if (keyItem) {
              update.mutate(toUpdateKeyBody(values, keyItem, projectId), {
                onSuccess: () => {
                  showMessage(t('messages.saved', { name: values.name }))
                  close()
                },
              })
            } else {
              create.mutate(toCreateKeyBody(values, projectId), {
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
