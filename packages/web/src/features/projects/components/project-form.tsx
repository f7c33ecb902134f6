import { MAX_NAME_LENGTH, type CreateProjectBody } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import { wholeNumberText } from '../utils/whole-number'

/** Highest limit the server accepts for parallel tasks. */
export const MAX_PARALLEL_TASKS = 1_000_000

export interface ProjectFormValues {
  name: string
  max_parallel_tasks: string
  alert: boolean
  alert_chat: string
  demo: boolean
}

export const emptyProjectValues: ProjectFormValues = {
  name: '',
  max_parallel_tasks: '',
  alert: false,
  alert_chat: '',
  demo: false,
}

export function projectFormSchema(t: TFunction<'projects'>, premium = false) {
  return z.object({
    name: z
      .string()
      .trim()
      .min(1, premium ? t('form.subscriptionNameRequired') : t('form.nameRequired'))
      .max(MAX_NAME_LENGTH, t('form.nameTooLong', { max: MAX_NAME_LENGTH })),
    max_parallel_tasks: wholeNumberText(t, 0, MAX_PARALLEL_TASKS),
    alert: z.boolean(),
    alert_chat: z
      .string()
      .trim()
      .max(MAX_NAME_LENGTH, t('form.chatTooLong', { max: MAX_NAME_LENGTH })),
    demo: z.boolean(),
  })
}

export type ProjectFormOutput = z.output<ReturnType<typeof projectFormSchema>>

/** The project fields as the API wants them; an empty limit means 0, i.e. unlimited. */
export function toProjectBody(values: ProjectFormOutput) {
  return {
    name: values.name,
    alert: values.alert,
    alert_chat: values.alert_chat === '' ? null : values.alert_chat,
    max_parallel_tasks: values.max_parallel_tasks === '' ? 0 : Number(values.max_parallel_tasks),
  } satisfies CreateProjectBody
}

export interface ProjectFormProps {
  id: string
  defaultValues?: ProjectFormValues
  onSubmit: (values: ProjectFormOutput) => void
  disabled?: boolean
  /** A subscription project only has a name. */
  premium?: boolean
  showDemo?: boolean
  autoFocus?: boolean
}

export function ProjectForm({
  id,
  defaultValues = emptyProjectValues,
  onSubmit,
  disabled = false,
  premium = false,
  showDemo = false,
  autoFocus = false,
}: ProjectFormProps) {
  const { t } = useTranslation('projects')
  const schema = useMemo(() => projectFormSchema(t, premium), [t, premium])
  const { control, handleSubmit, watch } = useForm<ProjectFormValues, unknown, ProjectFormOutput>({
    resolver: zodResolver(schema),
    defaultValues,
    mode: 'onTouched',
  })
  const alert = watch('alert')

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormTextField
          control={control}
          name="name"
          label={premium ? t('form.subscriptionName') : t('form.name')}
          required
          fullWidth
          autoFocus={autoFocus}
          disabled={disabled}
        />
        {premium ? null : (
          <>
            <FormTextField
              control={control}
              name="max_parallel_tasks"
              label={t('form.maxParallelTasks')}
              fullWidth
              disabled={disabled}
              slotProps={{ htmlInput: { inputMode: 'numeric' } }}
              hint={t('form.maxParallelTasksHint')}
            />
            <Controller
              name="alert"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                      disabled={disabled}
                    />
                  }
                  label={t('form.alert')}
                />
              )}
            />
            <FormTextField
              control={control}
              name="alert_chat"
              label={t('form.alertChat')}
              fullWidth
              disabled={disabled || !alert}
            />
            {showDemo ? (
              <Controller
                name="demo"
                control={control}
                render={({ field }) => (
                  <FormControlLabel
                    control={
                      <Checkbox
                        checked={field.value}
                        onChange={(event) => field.onChange(event.target.checked)}
                        onBlur={field.onBlur}
                        disabled={disabled}
                      />
                    }
                    label={t('form.demo')}
                  />
                )}
              />
            ) : null}
          </>
        )}
      </Stack>
    </form>
  )
}
