import type { CreatedRunner, Runner } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateRunner, useUpdateRunner } from '../api/runners'
import type { RunnerScope } from '../api/runners.query-keys'
import { toRunnerBody } from '../utils/runner-values'
import { RunnerForm } from './runner-form'

export interface RunnerDialogProps {
  open: boolean
  scope: RunnerScope
  /** The runner to edit; `null` creates a new one. */
  runner: Runner | null
  onClose: () => void
  /** A new runner, with its token and private key, which only this answer carries. */
  onCreated: (created: CreatedRunner) => void
}

export function RunnerDialog({ open, scope, runner, onClose, onCreated }: RunnerDialogProps) {
  const { t } = useTranslation('runners')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateRunner(scope)
  const update = useUpdateRunner(scope)
  const mutation = runner ? update : create

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
      title={runner ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {runner ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <RunnerForm
          key={runner?.id ?? 'new'}
          id={formId}
          runner={runner}
          onSubmit={(values) => {
            const body = toRunnerBody(values)
            if (runner) {
              update.mutate(
                { id: runner.id, body },
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
                  onCreated(created)
                },
              })
            }
          }}
        />
      ) : null}
    </AppDialog>
  )
}
