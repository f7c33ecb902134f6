import {
  CreateUserBody,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  type UpdateUserBody,
  type User,
} from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import AutorenewIcon from '@mui/icons-material/Autorenew'
import Alert from '@mui/material/Alert'
import IconButton from '@mui/material/IconButton'
import InputAdornment from '@mui/material/InputAdornment'
import Tooltip from '@mui/material/Tooltip'
import FormControlLabel from '@mui/material/FormControlLabel'
import Stack from '@mui/material/Stack'
import Switch from '@mui/material/Switch'
import type { TFunction } from 'i18next'
import { type ReactNode, useMemo, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { FormTextField } from '../../../components/form-text-field'
import {
  DEFAULT_PASSWORD_MIN_LENGTH,
  passwordLength,
  samplePassword,
  usePasswordMinLength,
} from '../utils/password'

export interface UserFormValues {
  name: string
  username: string
  email: string
  password: string
  alert: boolean
  admin: boolean
  pro: boolean
}

export function userFormSchema(
  t: TFunction<'users'>,
  {
    isNew,
    external,
    minLength = DEFAULT_PASSWORD_MIN_LENGTH,
  }: { isNew: boolean; external: boolean; minLength?: number },
) {
  const tooShort = t('form.passwordTooShort', { min: minLength })
  const longEnough = (value: string) => value === '' || passwordLength(value) >= minLength
  const contract = CreateUserBody.shape
  const tooLong = t('form.tooLong', { max: MAX_NAME_LENGTH })
  return z.object({
    name: z.string().trim().min(1, t('form.nameRequired')).max(MAX_NAME_LENGTH, tooLong),
    username: z
      .string()
      .trim()
      .min(1, t('form.usernameRequired'))
      .max(MAX_NAME_LENGTH, tooLong)
      .regex(/^\S+$/, t('form.usernameNoSpaces'))
      .pipe(contract.username),
    email: z
      .string()
      .trim()
      .min(1, t('form.emailRequired'))
      .max(MAX_NAME_LENGTH, tooLong)
      .regex(/^[^\s@]+@[^\s@]+$/, t('form.emailInvalid'))
      .pipe(contract.email),
    password:
      isNew && !external
        ? z
            .string()
            .min(1, t('form.passwordRequired'))
            .max(MAX_PASSWORD_LENGTH, t('form.tooLong', { max: MAX_PASSWORD_LENGTH }))
            .refine(longEnough, tooShort)
        : z
            .string()
            .max(MAX_PASSWORD_LENGTH, t('form.tooLong', { max: MAX_PASSWORD_LENGTH }))
            .refine((value) => external || longEnough(value), tooShort),
    alert: z.boolean(),
    admin: z.boolean(),
    pro: z.boolean(),
  })
}

export type UserFormOutput = z.output<ReturnType<typeof userFormSchema>>

export function userToFormValues(user: User | null): UserFormValues {
  return {
    name: user?.name ?? '',
    username: user?.username ?? '',
    email: user?.email ?? '',
    password: '',
    alert: user?.alert ?? false,
    admin: user?.admin ?? false,
    pro: user?.pro ?? false,
  }
}

/** The body for `POST /api/users` (new) or `PUT /api/users/{id}`; an empty password is left out. */
export function toUserBody(
  values: UserFormOutput,
  user: User | null,
): CreateUserBody & UpdateUserBody {
  const { password, ...rest } = values
  return {
    ...rest,
    ...(user ? { id: user.id } : {}),
    ...(password && !user?.external ? { password } : {}),
  }
}

type TextFieldName = 'name' | 'username' | 'email' | 'password'

interface TextFieldOptions {
  type?: string
  autoComplete?: string
  required?: boolean
  /** Disabled whatever the form's state, e.g. the email of an external user. */
  off?: boolean
  hint?: string
  autoFocus?: boolean
  end?: ReactNode
}

export interface UserFormProps {
  id: string
  /** The user being edited; `null` for a new user. */
  user: User | null
  /** Whether the signed-in user is an admin: only admins see the admin flag and set pro. */
  viewerIsAdmin: boolean
  /** Editing one's own account: the own admin flag can not be changed. */
  isSelf?: boolean
  showPassword?: boolean
  onSubmit: (values: UserFormOutput) => void
  disabled?: boolean
}

export function UserForm({
  id,
  user,
  viewerIsAdmin,
  isSelf = false,
  showPassword = true,
  onSubmit,
  disabled = false,
}: UserFormProps) {
  const { t } = useTranslation('users')
  const isNew = user === null
  const external = user?.external ?? false
  const minLength = usePasswordMinLength()
  const schema = useMemo(
    () => userFormSchema(t, { isNew, external, minLength }),
    [t, isNew, external, minLength],
  )
  // A generated password is shown, so that it can be read out or copied to the new user.
  const [passwordShown, setPasswordShown] = useState(false)
  const { control, handleSubmit, setValue } = useForm<UserFormValues, unknown, UserFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: userToFormValues(user),
    mode: 'onTouched',
  })

  const text = (name: TextFieldName, label: string, options: TextFieldOptions = {}) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      type={options.type}
      autoComplete={options.autoComplete}
      required={options.required}
      autoFocus={options.autoFocus}
      disabled={disabled || options.off}
      fullWidth
      hint={options.hint}
      slotProps={
        options.end
          ? {
              input: {
                endAdornment: <InputAdornment position="end">{options.end}</InputAdornment>,
              },
            }
          : undefined
      }
    />
  )

  const generate = () => {
    setValue('password', samplePassword(), { shouldValidate: true, shouldDirty: true })
    setPasswordShown(true)
  }

  const toggle = (name: 'alert' | 'admin' | 'pro', label: string, off = false) => (
    <Controller
      name={name}
      control={control}
      render={({ field }) => (
        <FormControlLabel
          control={
            <Switch
              checked={field.value}
              onChange={(event) => field.onChange(event.target.checked)}
              onBlur={field.onBlur}
              disabled={disabled || off}
            />
          }
          label={label}
        />
      )}
    />
  )

  return (
    <form id={id} noValidate onSubmit={handleSubmit(onSubmit)}>
      <Stack spacing={2} sx={{ pt: 1 }}>
        {external ? <Alert severity="info">{t('form.externalNote')}</Alert> : null}
        {text('name', t('form.name'), { required: true, autoComplete: 'name', autoFocus: true })}
        {text('username', t('form.username'), { required: true, autoComplete: 'off' })}
        {text('email', t('form.email'), {
          required: true,
          type: 'email',
          autoComplete: 'email',
          off: external,
        })}
        {showPassword
          ? text('password', t('form.password'), {
              type: passwordShown ? 'text' : 'password',
              autoComplete: 'new-password',
              required: isNew && !external,
              off: external,
              hint: isNew ? t('form.passwordMin', { min: minLength }) : t('form.passwordKeep'),
              end: external ? undefined : (
                <Tooltip title={t('form.generatePassword')}>
                  <IconButton
                    edge="end"
                    onClick={generate}
                    disabled={disabled}
                    aria-label={t('form.generatePassword')}
                  >
                    <AutorenewIcon />
                  </IconButton>
                </Tooltip>
              ),
            })
          : null}
        <Stack>
          {toggle('alert', t('form.alert'))}
          {viewerIsAdmin ? toggle('admin', t('form.admin'), isSelf) : null}
          {toggle('pro', t('form.pro'), !viewerIsAdmin)}
        </Stack>
      </Stack>
    </form>
  )
}
