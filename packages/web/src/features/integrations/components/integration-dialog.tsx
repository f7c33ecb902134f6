import type { Integration } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useKeys } from '../../keys/api/get-keys'
import { useTemplates } from '../../templates/api/templates'
import { useCreateIntegration, useUpdateIntegration } from '../api/integrations'
import { IntegrationForm, toIntegrationBody } from './integration-form'

export interface IntegrationDialogProps {
  open: boolean
  projectId: number
  /** The integration to edit; `null` creates a new one. */
  integration: Integration | null
  onClose: () => void
  onCreated?: (created: Integration) => void
}

export function IntegrationDialog({
  open,
  projectId,
  integration,
  onClose,
  onCreated,
}: IntegrationDialogProps) {
  const { t } = useTranslation('integrations')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const templates = useTemplates(projectId)
  const keys = useKeys(projectId)
  const create = useCreateIntegration(projectId)
  const update = useUpdateIntegration(projectId)
  const mutation = integration ? update : create
  // The selects show stored choices only once their options are there.
  const ready = templates.data !== undefined && keys.data !== undefined

  const close = () => {
    create.reset()
    update.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={600}
      title={integration ? t('dialog.editTitle') : t('dialog.newTitle')}
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
            {integration ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error ?? templates.error ?? keys.error} />
      {open && !ready && !templates.error && !keys.error ? <LoadingState /> : null}
      {open && ready ? (
        <IntegrationForm
          key={integration?.id ?? 'new'}
          id={formId}
          integration={integration}
          templates={templates.data}
          keys={keys.data}
          onSubmit={(values) => {
            const body = toIntegrationBody(values, projectId)
            if (integration) {
              update.mutate(
                { ...body, id: integration.id },
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
                  onCreated?.(created)
                },
              })
            }
          }}
        />
      ) : null}
    </AppDialog>
  )
}
