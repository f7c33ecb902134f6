import type { Runner } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import { useMemo } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormTextField } from '../../../components/form-text-field'
import {
  type RunnerFormOutput,
  type RunnerFormValues,
  runnerFormSchema,
  runnerToFormValues,
} from '../utils/runner-values'

type TextName = Exclude<keyof RunnerFormValues, 'active'>

export interface RunnerFormProps {
  id: string
  runner: Runner | null
  onSubmit: (values: RunnerFormOutput) => void
}

export function RunnerForm({ id, runner, onSubmit }: RunnerFormProps) {
  const { t } = useTranslation('runners')
  const schema = useMemo(() => runnerFormSchema(t), [t])
  const { control, handleSubmit } = useForm<RunnerFormValues, unknown, RunnerFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: runnerToFormValues(runner),
    mode: 'onTouched',
  })

  const text = (
    name: TextName,
    label: string,
    options: { required?: boolean; hint?: string; autoFocus?: boolean; numeric?: boolean } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      required={options.required}
      autoFocus={options.autoFocus}
      autoComplete="off"
      fullWidth
      slotProps={options.numeric ? { htmlInput: { inputMode: 'numeric' } } : undefined}
      hint={options.hint}
    />
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {text('name', t('form.name'), { required: true, autoFocus: true })}
        {text('webhook', t('form.webhook'), { hint: t('form.webhookHint') })}
        {text('max_parallel_tasks', t('form.maxParallelTasks'), {
          hint: t('form.maxParallelTasksHint'),
          numeric: true,
        })}
        {text('tag', t('form.tags'), { hint: t('form.tagsHint') })}
        <Controller
          name="active"
          control={control}
          render={({ field }) => (
            <FormControlLabel
              control={
                <Switch
                  checked={field.value}
                  onChange={(event) => field.onChange(event.target.checked)}
                  onBlur={field.onBlur}
                />
              }
              label={t('form.active')}
            />
          )}
        />
      </Stack>
    </form>
  )
}
