import { MAX_TASK_RETENTION_DAYS, MAX_TASKS_PER_TEMPLATE, type Project } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorAlert } from '../../../components/error-alert'
import { FormTextField } from '../../../components/form-text-field'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSystemInfo } from '../../system/api/get-info'
import { useUpdateProject } from '../api/update-project'
import { wholeNumberText } from '../utils/whole-number'

export interface RetentionFormValues {
  task_retention_days: string
  max_tasks_per_template: string
}

/** An optional whole number in range; empty stays empty (null). */
function optionalCount(t: TFunction<'projects'>, min: 0 | 1, max: number) {
  return wholeNumberText(t, min, max).transform((value) => (value === '' ? null : Number(value)))
}

export function retentionFormSchema(t: TFunction<'projects'>) {
  return z.object({
    task_retention_days: optionalCount(t, 0, MAX_TASK_RETENTION_DAYS),
    max_tasks_per_template: optionalCount(t, 1, MAX_TASKS_PER_TEMPLATE),
  })
}

export function retentionToFormValues(project: Project): RetentionFormValues {
  return {
    task_retention_days:
      project.task_retention_days === null ? '' : String(project.task_retention_days),
    max_tasks_per_template:
      project.max_tasks_per_template === null ? '' : String(project.max_tasks_per_template),
  }
}

export interface RetentionSectionProps {
  project: Project
  canUpdate: boolean
}

/**
 * How long the project keeps its task history, and how many runs per template: the server
 * removes finished tasks past either limit, with their logs, in the background.
 */
export function RetentionSection({ project, canUpdate }: RetentionSectionProps) {
  const { t } = useTranslation('projects')
  const { t: tc } = useTranslation()
  const titleId = useId()
  const formId = useId()
  const { showMessage } = useSnackbar()
  const update = useUpdateProject(project)
  const info = useSystemInfo()
  const schema = useMemo(() => retentionFormSchema(t), [t])
  const { control, handleSubmit } = useForm<
    RetentionFormValues,
    unknown,
    z.output<ReturnType<typeof retentionFormSchema>>
  >({
    resolver: zodResolver(schema),
    defaultValues: retentionToFormValues(project),
    mode: 'onTouched',
  })
  const serverDays = info.data?.task_retention_days
  const eventDays = info.data?.event_retention_days

  return (
    <Paper
      component="section"
      aria-labelledby={titleId}
      variant="outlined"
      sx={{ p: { xs: 2, sm: 3 } }}
    >
      <Typography id={titleId} variant="h6" component="h2" sx={{ mb: 1 }}>
        {t('retention.title')}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        {t('retention.text')}
      </Typography>
      <ErrorAlert error={update.error} />
      <form
        id={formId}
        noValidate
        onSubmit={handleSubmit((values) =>
          update.mutate(
            { name: project.name, ...values },
            { onSuccess: () => showMessage(t('retention.saved')) },
          ),
        )}
      >
        <Stack spacing={2} sx={{ pt: 1 }}>
          <FormTextField
            control={control}
            name="task_retention_days"
            label={t('retention.days')}
            fullWidth
            disabled={!canUpdate}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            hint={
              serverDays === undefined || serverDays === 0
                ? t('retention.daysHintForever')
                : t('retention.daysHint', { count: serverDays })
            }
          />
          <FormTextField
            control={control}
            name="max_tasks_per_template"
            label={t('retention.maxPerTemplate')}
            fullWidth
            disabled={!canUpdate}
            slotProps={{ htmlInput: { inputMode: 'numeric' } }}
            hint={t('retention.maxPerTemplateHint')}
          />
        </Stack>
      </form>
      {eventDays === undefined ? null : (
        <Alert severity="info" sx={{ mt: 2 }}>
          {eventDays === 0
            ? t('retention.eventsForever')
            : t('retention.events', { count: eventDays })}
        </Alert>
      )}
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
