import { MISSED_RUN_POLICIES, type Schedule, type Template } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Autocomplete from '@mui/material/Autocomplete'
import FormControlLabel from '@mui/material/FormControlLabel'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import { useMemo, useState } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { FormTextField } from '../../../components/form-text-field'
import { getErrorText } from '../../../lib/error-text'
import { useCronValidation, validateCron } from '../api/preview-schedule'
import {
  buildCron,
  CRON_MODES,
  type CronFields,
  type CronMode,
  DAY_OPTIONS,
  HOUR_OPTIONS,
  MINUTE_OPTIONS,
  MODE_FIELDS,
  MONTH_OPTIONS,
  WEEKDAY_OPTIONS,
} from '../utils/cron-modes'
import { useCronLocale } from '../utils/cron-text'
import { describeCron, monthName, timeZoneOptions, weekdayName } from '../utils/describe-cron'
import {
  scheduleFormSchema,
  type ScheduleFormOutput,
  type ScheduleFormValues,
  scheduleToFormValues,
} from '../utils/schedule-values'
import { useDebouncedValue } from '../utils/use-debounced-value'
import { SchedulePreviewTable } from './schedule-preview'

const pad = (value: number) => String(value).padStart(2, '0')

const FIELD_OPTIONS: Record<keyof CronFields, readonly number[]> = {
  month: MONTH_OPTIONS,
  day: DAY_OPTIONS,
  weekday: WEEKDAY_OPTIONS,
  hour: HOUR_OPTIONS,
  minute: MINUTE_OPTIONS,
}

export interface ScheduleFormProps {
  id: string
  projectId: number
  /** The schedule being edited; `null` for a new one. */
  schedule: Schedule | null
  templates: readonly Template[]
  /** The zone the server reads expressions in when a schedule names none. */
  serverTimezone: string | undefined
  onSubmit: (values: ScheduleFormOutput) => void
}

export function ScheduleForm({
  id,
  projectId,
  schedule,
  templates,
  serverTimezone,
  onSubmit,
}: ScheduleFormProps) {
  const { t, i18n } = useTranslation('schedules')
  const language = i18n.language
  const cronLocale = useCronLocale(language)
  const schema = useMemo(() => scheduleFormSchema(t), [t])
  const { control, handleSubmit, setValue, getValues, setError } = useForm<
    ScheduleFormValues,
    unknown,
    ScheduleFormOutput
  >({
    resolver: zodResolver(schema),
    defaultValues: scheduleToFormValues(schedule),
    mode: 'onTouched',
  })
  const mode = useWatch({ control, name: 'mode' })
  const cron = useWatch({ control, name: 'cron' })
  const timezone = useWatch({ control, name: 'timezone' })
  const [checking, setChecking] = useState(false)
  const zones = useMemo(() => {
    const all = timeZoneOptions()
    const current = schedule?.timezone
    return current && !all.includes(current) ? [current, ...all] : all
  }, [schedule?.timezone])

  const typed = useDebouncedValue(cron.trim())
  const validation = useCronValidation(projectId, typed, mode === 'raw')
  const serverMessage =
    mode === 'raw' && validation.error && typed === cron.trim()
      ? getErrorText(validation.error)
      : null

  /** Under the raw field: what the expression means, or else what its fields are. */
  const cronHelp = (expression: string) => {
    const text = describeCron(t, expression, language, cronLocale)
    return text === expression.trim() ? t('form.cronHint') : text
  }

  /** The selectors write the expression whenever the mode or one of them changes. */
  const rewrite = () => {
    const values = getValues()
    const built = buildCron(values)
    if (built !== null) setValue('cron', built, { shouldValidate: false })
  }

  const submit = handleSubmit(async (values) => {
    // The server's cron engine decides whether it can read the expression.
    setChecking(true)
    try {
      await validateCron(projectId, values.cron)
    } catch (error) {
      setError('cron', { message: getErrorText(error) }, { shouldFocus: values.mode === 'raw' })
      return
    } finally {
      setChecking(false)
    }
    onSubmit(values)
  })

  const selector = (field: keyof CronFields) => (
    <Controller
      key={field}
      name={field}
      control={control}
      render={({ field: input }) => (
        <TextField
          {...input}
          inputRef={input.ref}
          select
          label={t(`form.fields.${field}`)}
          onChange={(event) => {
            input.onChange(Number(event.target.value))
            rewrite()
          }}
          sx={{ minWidth: field === 'month' || field === 'weekday' ? 150 : 96, flex: 1 }}
        >
          {FIELD_OPTIONS[field].map((value) => (
            <MenuItem key={value} value={value}>
              {field === 'month'
                ? monthName(value, language)
                : field === 'weekday'
                  ? weekdayName(value, language)
                  : field === 'hour' || field === 'minute'
                    ? pad(value)
                    : value}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  )

  return (
    <form id={id} noValidate onSubmit={(event) => void submit(event)} aria-busy={checking}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        <FormTextField
          control={control}
          name="name"
          label={t('form.name')}
          required
          autoFocus
          autoComplete="off"
          fullWidth
        />
        <FormTextField
          control={control}
          name="template_id"
          select
          label={t('form.template')}
          required
          fullWidth
        >
          {templates.map((template) => (
            <MenuItem key={template.id} value={String(template.id)}>
              {template.name}
            </MenuItem>
          ))}
        </FormTextField>
        <Controller
          name="mode"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              select
              label={t('form.timing')}
              fullWidth
              onChange={(event) => {
                field.onChange(event.target.value as CronMode)
                rewrite()
              }}
            >
              {CRON_MODES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`modes.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {mode === 'raw' ? (
          <Controller
            name="cron"
            control={control}
            render={({ field, fieldState }) => {
              const message = fieldState.error?.message ?? serverMessage
              return (
                <TextField
                  {...field}
                  inputRef={field.ref}
                  label={t('form.cron')}
                  required
                  fullWidth
                  autoComplete="off"
                  error={Boolean(message)}
                  helperText={message ?? cronHelp(cron)}
                  slotProps={{
                    htmlInput: { spellCheck: false, style: { fontFamily: 'monospace' } },
                  }}
                />
              )
            }}
          />
        ) : (
          <>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              {MODE_FIELDS[mode].map(selector)}
            </Stack>
            <Controller
              name="cron"
              control={control}
              render={({ fieldState }) => (
                <Typography
                  variant="body2"
                  color={fieldState.error ? 'error' : 'text.secondary'}
                  role={fieldState.error ? 'alert' : undefined}
                >
                  {fieldState.error?.message ?? (
                    <>
                      <code data-testid="schedule-expression">{cron}</code>
                      {' — '}
                      {describeCron(t, cron, language, cronLocale)}
                    </>
                  )}
                </Typography>
              )}
            />
          </>
        )}
        <Controller
          name="timezone"
          control={control}
          render={({ field }) => (
            <Autocomplete
              options={zones}
              value={field.value || null}
              onChange={(_event, value) => field.onChange(value ?? '')}
              onBlur={field.onBlur}
              autoHighlight
              renderInput={(params) => (
                <TextField
                  {...params}
                  inputRef={field.ref}
                  label={t('form.timezone')}
                  placeholder={serverTimezone}
                  helperText={
                    serverTimezone
                      ? t('form.timezoneHelp', { zone: serverTimezone })
                      : t('form.timezoneHelpUnknown')
                  }
                />
              )}
            />
          )}
        />
        <Controller
          name="missed_run_policy"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              select
              label={t('form.missedRuns')}
              fullWidth
              helperText={t('form.missedRunsHelp')}
            >
              {MISSED_RUN_POLICIES.map((value) => (
                <MenuItem key={value} value={value}>
                  {t(`policies.${value}`)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
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
        <SchedulePreviewTable
          projectId={projectId}
          cron={mode === 'raw' && validation.isError ? '' : cron}
          timezone={timezone}
        />
      </Stack>
    </form>
  )
}
