import type { Project } from '@flagman/contract'
import Button from '@mui/material/Button'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { AppDialog } from '../../../components/app-dialog'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateProject } from '../api/create-project'
import { ProjectForm, toProjectBody } from './project-form'

export interface NewProjectDialogProps {
  open: boolean
  premium?: boolean
  onClose: () => void
  onCreated: (project: Project) => void
}

export function NewProjectDialog({
  open,
  premium = false,
  onClose,
  onCreated,
}: NewProjectDialogProps) {
  const { t } = useTranslation('projects')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateProject()

  const close = () => {
    create.reset()
    onClose()
  }

  return (
    <AppDialog
      open={open}
      onClose={close}
      title={premium ? t('new.premiumTitle') : t('new.title')}
      actions={
        <>
          <Button onClick={close} disabled={create.isPending}>
            {tc('actions.cancel')}
          </Button>
          <Button type="submit" form={formId} variant="contained" loading={create.isPending}>
            {tc('actions.create')}
          </Button>
        </>
      }
    >
      <ErrorAlert error={create.error} />
      {open ? (
        <ProjectForm
          id={formId}
          premium={premium}
          showDemo={!premium}
          autoFocus
          onSubmit={(values) =>
            create.mutate(
              {
                ...toProjectBody(values),
                ...(premium ? { type: 'premium' as const } : { demo: values.demo }),
              },
              {
                onSuccess: (project) => {
                  showMessage(t('new.created', { name: project.name }))
                  create.reset()
                  onCreated(project)
                },
              },
            )
          }
        />
      ) : null}
    </AppDialog>
  )
}
