import { LoginBody } from '@flagman/contract'
import { zodResolver } from '@hookform/resolvers/zod'
import Visibility from '@mui/icons-material/Visibility'
import VisibilityOff from '@mui/icons-material/VisibilityOff'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import InputAdornment from '@mui/material/InputAdornment'
import Stack from '@mui/material/Stack'
import type { TFunction } from 'i18next'
import { useMemo, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { ErrorAlert } from '../../../components/error-alert'
import { FormTextField } from '../../../components/form-text-field'
import { isApiError } from '../../../lib/api-client'
import { getErrorText } from '../../../lib/error-text'
import { useLogin } from '../api/login'

function loginSchema(t: TFunction<'auth'>) {
  const { auth, password } = LoginBody.shape
  return z.object({
    auth: z.string().trim().min(1, t('login.usernameRequired')).pipe(auth),
    password: z.string().min(1, t('login.passwordRequired')).pipe(password),
  })
}

type LoginValues = z.input<ReturnType<typeof loginSchema>>
type LoginOutput = z.output<ReturnType<typeof loginSchema>>

/** The sign-in error: a refused password has its own text, anything else the server's words. */
export function loginErrorText(error: unknown, t: TFunction<'auth'>): string {
  if (isApiError(error) && error.status === 401) return t('login.incorrect')
  return getErrorText(error)
}

export function LoginForm({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation('auth')
  const schema = useMemo(() => loginSchema(t), [t])
  const [showPassword, setShowPassword] = useState(false)
  const login = useLogin()
  const { control, handleSubmit } = useForm<LoginValues, unknown, LoginOutput>({
    resolver: zodResolver(schema),
    defaultValues: { auth: '', password: '' },
    // Checked when the person signs in, not when the field loses focus: the username field has
    // the focus on arrival, and moving away to "Trouble signing in?" is not a mistake.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  })

  return (
    <form
      noValidate
      onSubmit={handleSubmit((body) => login.mutate(body, { onSuccess: onSignedIn }))}
    >
      <Stack spacing={2}>
        <ErrorAlert text={login.error ? loginErrorText(login.error, t) : null} />
        <FormTextField
          control={control}
          name="auth"
          label={t('login.username')}
          autoComplete="username"
          autoFocus
          required
          fullWidth
        />
        <FormTextField
          control={control}
          name="password"
          label={t('login.password')}
          type={showPassword ? 'text' : 'password'}
          autoComplete="current-password"
          required
          fullWidth
          slotProps={{
            input: {
              endAdornment: (
                <InputAdornment position="end">
                  <IconButton
                    edge="end"
                    onClick={() => setShowPassword((shown) => !shown)}
                    aria-label={showPassword ? t('login.hidePassword') : t('login.showPassword')}
                  >
                    {showPassword ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </InputAdornment>
              ),
            },
          }}
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  )
}
