import type { Project } from '@flagman/contract'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useCreateProject } from '../api/create-project'
import { ProjectForm, toProjectBody } from './project-form'

export interface NewProjectPanelProps {
  premium?: boolean
  onCreated: (project: Project) => void
}

/** The new-project form as the content of a page. */
export function NewProjectPanel({ premium = false, onCreated }: NewProjectPanelProps) {
  const { t } = useTranslation('projects')
  const { t: tc } = useTranslation()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const create = useCreateProject()

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 560 }}>
      <ErrorAlert error={create.error} />
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
                onCreated(project)
              },
            },
          )
        }
      />
      <Stack direction="row" sx={{ mt: 3, justifyContent: 'flex-end' }}>
        <Button type="submit" form={formId} variant="contained" loading={create.isPending}>
          {tc('actions.create')}
        </Button>
      </Stack>
    </Paper>
  )
}
