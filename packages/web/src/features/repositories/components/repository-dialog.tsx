import type { Repository } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateRepository } from '../api/create-repository'
import { useUpdateRepository } from '../api/update-repository'
import { type KeyChoice, RepositoryForm, toRepositoryBody } from './repository-form'

export interface RepositoryDialogProps {
  open: boolean
  projectId: number
  /** The repository to edit; `null` creates a new one. */
  repository: Repository | null
  /** The project's keys, to choose the access key from. */
  keys: readonly KeyChoice[]
  keysPending?: boolean
  onClose: () => void
}

export function RepositoryDialog({
  open,
  projectId,
  repository,
  keys,
  keysPending,
  onClose,
}: RepositoryDialogProps) {
  const { t } = useTranslation('repositories')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateRepository(projectId)
  const update = useUpdateRepository(projectId)
  const mutation = repository ? update : create

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
      title={repository ? t('dialog.editTitle') : t('dialog.newTitle')}
      actions={
        <>
          <Button onClick={close} disabled={mutation.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={mutation.isPending}>
            {repository ? tc('actions.save') : tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={mutation.error} />
      {open ? (
        <RepositoryForm
          key={repository?.id ?? 'new'}
          id={formId}
          repository={repository}
          keys={keys}
          keysPending={keysPending}
          onSubmit={(values) => {
            const body = toRepositoryBody(values, projectId)
            if (repository) {
              update.mutate(
                { ...body, id: repository.id },
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
