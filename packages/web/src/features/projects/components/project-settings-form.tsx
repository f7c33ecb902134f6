import type { Project } from '@flagman/contract'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useUpdateProject } from '../api/update-project'
import { ProjectForm, type ProjectFormValues, toProjectBody } from './project-form'

export function projectToFormValues(project: Project): ProjectFormValues {
  return {
    name: project.name,
    max_parallel_tasks: String(project.max_parallel_tasks ?? ''),
    alert: project.alert,
    alert_chat: project.alert_chat ?? '',
    demo: false,
  }
}

export interface ProjectSettingsFormProps {
  project: Project
  /** Whether the user may change the project (the updateProject permission, or admin). */
  canUpdate: boolean
}

/** The General section of the project settings. */
export function ProjectSettingsForm({ project, canUpdate }: ProjectSettingsFormProps) {
  const { t } = useTranslation('projects')
  const { t: tc } = useTranslation()
  const formId = useId()
  const titleId = useId()
  const { showMessage } = useSnackbar()
  const update = useUpdateProject(project)

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 2 }}>
        {t('settings.general')}
      </Typography>
      {canUpdate ? null : (
        <Alert severity="info" sx={{ mb: 2 }}>
          {t('settings.readOnly')}
        </Alert>
      )}
      <ErrorAlert error={update.error} />
      <ProjectForm
        key={project.id}
        id={formId}
        defaultValues={projectToFormValues(project)}
        disabled={!canUpdate}
        onSubmit={(values) =>
          update.mutate(toProjectBody(values), {
            onSuccess: () => showMessage(t('settings.saved', { name: values.name })),
          })
        }
      />
      <Stack direction="row" sx={{ mt: 3, justifyContent: 'flex-end' }}>
        <Button
          type="submit"
          form={formId}
          variant="contained"
          disabled={!canUpdate}
          loading={update.isPending}
        >
          {tc('actions.save')}
        </Button>
      </Stack>
    </Paper>
  )
}
