import { MAX_PASSWORD_LENGTH } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Alert from '@mui/material/Alert'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorAlert } from '../../../components/error-alert'
import { FormTextField } from '../../../components/form-text-field'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSetUserPassword } from '../api/set-user-password'
import { passwordLength, usePasswordMinLength } from '../utils/password'

function passwordSchema(t: TFunction<'users'>, minLength: number) {
  const tooLong = t('form.tooLong', { max: MAX_PASSWORD_LENGTH })
  const tooShort = t('form.passwordTooShort', { min: minLength })
  return z.object({
    currentPassword: z
      .string()
      .min(1, t('account.currentPasswordRequired'))
      .max(MAX_PASSWORD_LENGTH, tooLong),
    password: z
      .string()
      .min(1, t('form.passwordRequired'))
      .max(MAX_PASSWORD_LENGTH, tooLong)
      .refine((value) => passwordLength(value) >= minLength, tooShort),
  })
}

type PasswordValues = z.infer<ReturnType<typeof passwordSchema>>

export interface ChangePasswordFormProps {
  userId: number
  /** External users sign in elsewhere and have no password here. */
  external?: boolean
}

/** The signed-in user's own password change, which proves the current password first. */
export function ChangePasswordForm({ userId, external = false }: ChangePasswordFormProps) {
  const { t } = useTranslation('users')
  const minLength = usePasswordMinLength()
  const schema = useMemo(() => passwordSchema(t, minLength), [t, minLength])
  const { showMessage } = useSnackbar()
  const setPassword = useSetUserPassword()
  const { control, handleSubmit, reset } = useForm<PasswordValues>({
    resolver: zodResolver(schema),
    defaultValues: { currentPassword: '', password: '' },
    mode: 'onTouched',
  })

  if (external) {
    return <Alert severity="info">{t('account.externalNoPassword')}</Alert>
  }

  const field = (
    name: keyof PasswordValues,
    label: string,
    autoComplete: 'current-password' | 'new-password',
  ) => (
    <FormTextField
      control={control}
      name={name}
      label={label}
      type="password"
      autoComplete={autoComplete}
      required
      fullWidth
      size="small"
    />
  )

  return (
    <form
      noValidate
      onSubmit={handleSubmit(({ currentPassword, password }) =>
        setPassword.mutate(
          { userId, password, currentPassword },
          {
            onSuccess: () => {
              reset({ currentPassword: '', password: '' })
              showMessage(t('messages.passwordChanged'))
            },
          },
        ),
      )}
    >
      <ErrorAlert error={setPassword.error} />
      <Stack spacing={1.5}>
        {field('currentPassword', t('account.currentPassword'), 'current-password')}
        {field('password', t('account.newPassword'), 'new-password')}
        <Button
          type="submit"
          variant="outlined"
          loading={setPassword.isPending}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('account.changePassword')}
        </Button>
      </Stack>
    </form>
  )
}
