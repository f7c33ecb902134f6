import {
  ACCESS_KEY_TYPES,
  type AccessKey,
  AccessKeyType,
  type CreateAccessKeyBody,
  MAX_NAME_LENGTH,
  MAX_SECRET_LENGTH,
  type UpdateAccessKeyBody,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Checkbox from '@mui/material/Checkbox'
import FormControlLabel from '@mui/material/FormControlLabel'
import MenuItem from '@mui/material/MenuItem'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { Controller, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import { keyTypeLabel } from './key-type-label'

export interface KeyFormValues {
  name: string
  type: string
  override_secret: boolean
  login: string
  passphrase: string
  private_key: string
  password: string
}

export function keyFormSchema(t: TFunction<'keys'>, { isNew }: { isNew: boolean }) {
  const secret = z.string().max(MAX_SECRET_LENGTH, t('form.tooLong', { max: MAX_SECRET_LENGTH }))
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      type: z.string().min(1, t('form.typeRequired')).pipe(AccessKeyType),
      override_secret: z.boolean(),
      login: z
        .string()
        .trim()
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      passphrase: secret,
      private_key: secret,
      password: secret,
    })
    .superRefine((values, ctx) => {
      // Secrets are required only when they are being set: a new key, or an override.
      if (!isNew && !values.override_secret) return
      if (values.type === 'ssh' && values.private_key.trim() === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['private_key'],
          message: t('form.privateKeyRequired'),
        })
      }
      if (values.type === 'login_password' && values.password === '') {
        ctx.addIssue({ code: 'custom', path: ['password'], message: t('form.passwordRequired') })
      }
    })
}

export type KeyFormOutput = z.output<ReturnType<typeof keyFormSchema>>

export function keyToFormValues(key: AccessKey | null): KeyFormValues {
  return {
    name: key?.name ?? '',
    type: key?.type ?? '',
    override_secret: false,
    login: '',
    passphrase: '',
    private_key: '',
    password: '',
  }
}

function secretOf(values: KeyFormOutput): Pick<CreateAccessKeyBody, 'ssh' | 'login_password'> {
  switch (values.type) {
    case 'ssh':
      return {
        ssh: {
          login: values.login,
          passphrase: values.passphrase,
          private_key: values.private_key,
        },
      }
    case 'login_password':
      return { login_password: { login: values.login, password: values.password } }
    case 'none':
      return {}
  }
}

export function toCreateKeyBody(values: KeyFormOutput, projectId: number): CreateAccessKeyBody {
  return { name: values.name, type: values.type, project_id: projectId, ...secretOf(values) }
}

/** Without an override only the name changes, and no secret is sent. */
export function toUpdateKeyBody(
  values: KeyFormOutput,
  key: AccessKey,
  projectId: number,
): UpdateAccessKeyBody & { id: number } {
  if (!values.override_secret) {
    const current = AccessKeyType.safeParse(key.type)
    return {
      id: key.id,
      name: values.name,
      type: current.success ? current.data : values.type,
      project_id: projectId,
      override_secret: false,
    }
  }
  return {
    id: key.id,
    name: values.name,
    type: values.type,
    project_id: projectId,
    override_secret: true,
    ...secretOf(values),
  }
}

type TextName = 'name' | 'login' | 'passphrase' | 'private_key' | 'password'

export interface KeyFormProps {
  id: string
  /** The key being edited; `null` for a new key. */
  keyItem: AccessKey | null
  onSubmit: (values: KeyFormOutput) => void
}

export function KeyForm({ id, keyItem, onSubmit }: KeyFormProps) {
  const { t } = useTranslation('keys')
  const isNew = keyItem === null
  const schema = useMemo(() => keyFormSchema(t, { isNew }), [t, isNew])
  const { control, handleSubmit } = useForm<KeyFormValues, unknown, KeyFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: keyToFormValues(keyItem),
    mode: 'onTouched',
  })
  const type = useWatch({ control, name: 'type' })
  const override = useWatch({ control, name: 'override_secret' })
  const editable = isNew || override

  const text = (
    name: TextName,
    label: string,
    options: {
      type?: string
      required?: boolean
      autoComplete?: string
      multiline?: boolean
      secret?: boolean
      autoFocus?: boolean
    } = {},
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      type={options.type}
      required={options.required}
      autoComplete={options.autoComplete ?? 'off'}
      autoFocus={options.autoFocus}
      disabled={options.secret ? !editable : false}
      multiline={options.multiline}
      minRows={options.multiline ? 4 : undefined}
      maxRows={options.multiline ? 12 : undefined}
      fullWidth
      slotProps={
        options.multiline
          ? {
              htmlInput: {
                spellCheck: false,
                style: { fontFamily: 'monospace', fontSize: 13 },
              },
            }
          : undefined
      }
    />
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {text('name', t('form.name'), { required: true, autoFocus: true })}
        {isNew ? null : (
          <>
            <Alert severity="info">{t('form.overrideHint')}</Alert>
            <Controller
              name="override_secret"
              control={control}
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Checkbox
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      onBlur={field.onBlur}
                    />
                  }
                  label={t('form.override')}
                />
              )}
            />
          </>
        )}
        <FormTextField
          control={control}
          name="type"
          select
          label={t('form.type')}
          required
          fullWidth
          disabled={!editable}
        >
          {ACCESS_KEY_TYPES.map((value) => (
            <MenuItem key={value} value={value}>
              {keyTypeLabel(t, value)}
            </MenuItem>
          ))}
        </FormTextField>
        {type === 'ssh' ? (
          <>
            {text('login', t('form.login'), { secret: true })}
            {text('passphrase', t('form.passphrase'), {
              type: 'password',
              autoComplete: 'new-password',
              secret: true,
            })}
            {text('private_key', t('form.privateKey'), {
              required: editable,
              multiline: true,
              secret: true,
            })}
          </>
        ) : null}
        {type === 'login_password' ? (
          <>
            {text('login', t('form.login'), { secret: true })}
            {text('password', t('form.password'), {
              type: 'password',
              autoComplete: 'new-password',
              required: editable,
              secret: true,
            })}
          </>
        ) : null}
      </Stack>
    </form>
  )
}
