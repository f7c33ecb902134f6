import { MAX_PASSWORD_LENGTH } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import type { TFunction } from 'i18next'
import { useMemo } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { useSetUserPassword } from '../api/set-user-password'

function passwordSchema(t: TFunction<'users'>) {
  return z.object({
    password: z
      .string()
      .min(1, t('form.passwordRequired'))
      .max(MAX_PASSWORD_LENGTH, t('form.tooLong', { max: MAX_PASSWORD_LENGTH })),
  })
}

export interface ChangePasswordFormProps {
  userId: number
  /** External users sign in elsewhere and have no password here. */
  disabled?: boolean
}

export function ChangePasswordForm({ userId, disabled = false }: ChangePasswordFormProps) {
  const { t } = useTranslation('users')
  const schema = useMemo(() => passwordSchema(t), [t])
  const { showMessage } = useSnackbar()
  const setPassword = useSetUserPassword()
  const { control, handleSubmit, reset } = useForm<{ password: string }>({
    resolver: zodResolver(schema),
    defaultValues: { password: '' },
    mode: 'onTouched',
  })

  return (
    <form
      noValidate
      onSubmit={handleSubmit(({ password }) =>
        setPassword.mutate(
          { userId, password },
          {
            onSuccess: () => {
              reset({ password: '' })
              showMessage(t('messages.passwordChanged'))
            },
          },
        ),
      )}
    >
      <ErrorAlert error={setPassword.error} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Controller
          name="password"
          control={control}
          render={({ field, fieldState }) => (
            <TextField
              {...field}
              inputRef={field.ref}
              label={t('account.newPassword')}
              type="password"
              autoComplete="new-password"
              required
              fullWidth
              size="small"
              disabled={disabled}
              error={Boolean(fieldState.error)}
              helperText={fieldState.error?.message}
            />
          )}
        />
        <Button
          type="submit"
          variant="outlined"
          disabled={disabled}
          loading={setPassword.isPending}
          sx={{ flexShrink: 0, mt: { sm: 0.25 } }}
        >
          {t('account.changePassword')}
        </Button>
      </Stack>
    </form>
  )
}
