import {
  type AccessKey,
  type CreateIntegrationBody,
  INTEGRATION_AUTH_METHODS,
  type Integration,
  type IntegrationAuthMethod,
  MAX_NAME_LENGTH,
  type Template,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import FormControlLabel from '@mui/material/FormControlLabel'
import FormHelperText from '@mui/material/FormHelperText'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import TextField from '@mui/material/TextField'
import type { TFunction } from 'i18next'
import { useId, useMemo } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import { authMethodLabel } from '../utils/labels'
import { formatTaskParams, parseTaskParams } from '../utils/task-params'

/** The select's value of the empty auth method, which a select can not show as chosen. */
const NO_AUTH = 'none'

export interface IntegrationFormValues {
  name: string
  template_id: string
  auth_method: string
  auth_header: string
  auth_secret_id: string
  searchable: boolean
  debounce: boolean
  task_params: string
}

/** Methods whose secret travels in a header the integration names. */
export function usesAuthHeader(method: string): boolean {
  return method === 'token' || method === 'hmac'
}

function toAuthMethod(value: string): IntegrationAuthMethod {
  const method = value === NO_AUTH ? '' : value
  return INTEGRATION_AUTH_METHODS.find((item) => item === method) ?? ''
}

export function integrationFormSchema(t: TFunction<'integrations'>) {
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      template_id: z.string().min(1, t('form.templateRequired')),
      auth_method: z.string(),
      auth_header: z
        .string()
        .trim()
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      auth_secret_id: z.string(),
      searchable: z.boolean(),
      debounce: z.boolean(),
      task_params: z.string(),
    })
    .superRefine((values, ctx) => {
      const method = toAuthMethod(values.auth_method)
      if (method !== '' && values.auth_secret_id === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['auth_secret_id'],
          message: t('form.secretRequired'),
        })
      }
      if (usesAuthHeader(method) && values.auth_header === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['auth_header'],
          message: t('form.authHeaderRequired'),
        })
      }
      const params = parseTaskParams(values.task_params)
      if (!params.ok) {
        ctx.addIssue({
          code: 'custom',
          path: ['task_params'],
          message:
            params.problem === 'json' ? t('form.taskParamsJson') : t('form.taskParamsObject'),
        })
      }
    })
}

export type IntegrationFormOutput = z.output<ReturnType<typeof integrationFormSchema>>

export function integrationToFormValues(integration: Integration | null): IntegrationFormValues {
  return {
    name: integration?.name ?? '',
    template_id: integration ? String(integration.template_id) : '',
    auth_method: integration?.auth_method ? integration.auth_method : NO_AUTH,
    auth_header: integration?.auth_header ?? '',
    auth_secret_id:
      integration?.auth_secret_id !== null && integration?.auth_secret_id !== undefined
        ? String(integration.auth_secret_id)
        : '',
    searchable: integration?.searchable ?? false,
    debounce: integration?.debounce ?? false,
    task_params: formatTaskParams(integration?.task_params ?? null),
  }
}

/** The request body: fields the chosen method does not use are sent empty. */
export function toIntegrationBody(
  values: IntegrationFormOutput,
  projectId: number,
): CreateIntegrationBody & { project_id: number } {
  const method = toAuthMethod(values.auth_method)
  const params = parseTaskParams(values.task_params)
  return {
    name: values.name,
    project_id: projectId,
    template_id: Number(values.template_id),
    auth_method: method,
    auth_header: usesAuthHeader(method) ? values.auth_header : '',
    auth_secret_id:
      method === '' || values.auth_secret_id === '' ? null : Number(values.auth_secret_id),
    searchable: values.searchable,
    debounce: values.debounce,
    task_params: params.ok ? params.value : null,
  }
}

export interface IntegrationFormProps {
  id: string
  integration: Integration | null
  templates: readonly Template[]
  /** The project's keys; only login-with-password keys can hold the secret. */
  keys: readonly AccessKey[]
  onSubmit: (values: IntegrationFormOutput) => void
}

export function IntegrationForm({
  id,
  integration,
  templates,
  keys,
  onSubmit,
}: IntegrationFormProps) {
  const { t } = useTranslation('integrations')
  const schema = useMemo(() => integrationFormSchema(t), [t])
  const { control, handleSubmit } = useForm<IntegrationFormValues, unknown, IntegrationFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: integrationToFormValues(integration),
    mode: 'onTouched',
  })
  const method = toAuthMethod(useWatch({ control, name: 'auth_method' }))
  const secretKeys = keys.filter((key) => key.type === 'login_password')
  const searchableHintId = useId()
  const debounceHintId = useId()

  const headerHint = method === 'token' ? t('form.tokenHeaderHint') : t('form.hmacHeaderHint')

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
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
          hint={templates.length === 0 ? t('form.noTemplates') : undefined}
        >
          {templates.map((template) => (
            <MenuItem key={template.id} value={String(template.id)}>
              {template.name}
            </MenuItem>
          ))}
        </FormTextField>
        <Controller
          name="auth_method"
          control={control}
          render={({ field }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              select
              label={t('form.authMethod')}
              fullWidth
            >
              {INTEGRATION_AUTH_METHODS.map((value) => (
                <MenuItem key={value || NO_AUTH} value={value || NO_AUTH}>
                  {authMethodLabel(t, value)}
                </MenuItem>
              ))}
            </TextField>
          )}
        />
        {method === 'github' ? <Alert severity="info">{t('form.githubHint')}</Alert> : null}
        {usesAuthHeader(method) ? (
          <FormTextField
            control={control}
            name="auth_header"
            label={t('form.authHeader')}
            required
            autoComplete="off"
            fullWidth
            hint={headerHint}
          />
        ) : null}
        {method !== '' ? (
          <FormTextField
            control={control}
            name="auth_secret_id"
            select
            label={t('form.secret')}
            required
            fullWidth
            hint={secretKeys.length === 0 ? t('form.noSecretKeys') : t('form.secretHint')}
          >
            {secretKeys.map((key) => (
              <MenuItem key={key.id} value={String(key.id)}>
                {key.name}
              </MenuItem>
            ))}
          </FormTextField>
        ) : null}
        <Controller
          name="searchable"
          control={control}
          render={({ field }) => (
            <div>
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{ input: { 'aria-describedby': searchableHintId } }}
                  />
                }
                label={t('form.searchable')}
              />
              <FormHelperText id={searchableHintId} sx={{ mt: 0 }}>
                {t('form.searchableHint')}
              </FormHelperText>
            </div>
          )}
        />
        <Controller
          name="debounce"
          control={control}
          render={({ field }) => (
            <div>
              <FormControlLabel
                control={
                  <Switch
                    checked={field.value}
                    onChange={(event) => field.onChange(event.target.checked)}
                    onBlur={field.onBlur}
                    slotProps={{ input: { 'aria-describedby': debounceHintId } }}
                  />
                }
                label={t('form.debounce')}
              />
              <FormHelperText id={debounceHintId} sx={{ mt: 0 }}>
                {t('form.debounceHint')}
              </FormHelperText>
            </div>
          )}
        />
        <FormTextField
          control={control}
          name="task_params"
          label={t('form.taskParams')}
          multiline
          minRows={3}
          maxRows={12}
          fullWidth
          placeholder='{"debug": true}'
          hint={t('form.taskParamsHint')}
          slotProps={{
            htmlInput: {
              spellCheck: false,
              style: { fontFamily: 'monospace', fontSize: 13 },
            },
          }}
        />
      </Stack>
    </form>
  )
}
