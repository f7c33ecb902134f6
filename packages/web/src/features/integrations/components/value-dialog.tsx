import type { IntegrationExtractValue } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSaveExtractValue } from '../api/values'
import { toValueBody, ValueForm } from './value-form'

export interface ValueDialogProps {
  open: boolean
  projectId: number
  integrationId: number
  /** The extracted value to edit; `null` creates a new one. */
  value: IntegrationExtractValue | null
  onClose: () => void
}

export function ValueDialog({ open, projectId, integrationId, value, onClose }: ValueDialogProps) {
  const { t } = useTranslation('integrations')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const save = useSaveExtractValue(projectId, integrationId)

  const close = () => {
    save.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      width={520}
      title={value ? t('values.editTitle') : t('values.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={save.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={save.isPending}>
            {value ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={save.error} />
      {open ? (
        <ValueForm
          key={value?.id ?? 'new'}
          id={formId}
          value={value}
          onSubmit={(values) =>
            save.mutate(
              { id: value?.id ?? null, body: toValueBody(values, integrationId) },
              {
                onSuccess: () => {
                  showMessage(t(value ? 'values.saved' : 'values.created', { name: values.name }))
                  close()
                },
              },
            )
          }
        />
      ) : null}
    </AppDialog>
  )
}
