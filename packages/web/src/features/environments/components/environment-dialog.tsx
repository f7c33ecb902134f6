import type { Environment } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateEnvironment } from '../api/create-environment'
import { useEnvironment } from '../api/get-environment'
import { useUpdateEnvironment } from '../api/update-environment'
import { EnvironmentForm, toEnvironmentBody } from './environment-form'

export interface EnvironmentDialogProps {
  open: boolean
  projectId: number
  /** The environment to edit; `null` creates a new one. */
  environment: Environment | null
  onClose: () => void
}

export function EnvironmentDialog({
  open,
  projectId,
  environment,
  onClose,
}: EnvironmentDialogProps) {
  const { t } = useTranslation('environments')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateEnvironment(projectId)
  const update = useUpdateEnvironment(projectId)
  const mutation = environment ? update : create
  // The list has no secrets; the form needs them to show and diff them.
  const stored = useEnvironment(projectId, open && environment ? environment.id : null)
  const loaded = environment ? (stored.data ?? null) : null
  const ready = !environment || loaded !== null

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={760}
      title={environment ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="contained"
            loading={mutation.isPending}
            disabled={!ready}
          >
            {environment ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error ?? stored.error} />
      {open && ready ? (
        <EnvironmentForm
          key={loaded?.id ?? 'new'}
          id={formId}
          environment={loaded}
          onSubmit={(values) => {
            const body = toEnvironmentBody(values, loaded, projectId)
            if (environment) {
              update.mutate(
                { ...body, id: environment.id },
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
      ) : open && stored.isPending ? (
        <LoadingState />
      ) : null}
    </AppDialog>
  )
}
