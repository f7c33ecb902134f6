import { TOTP_CODE_LENGTH } from '@flagman/contract'
import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Typography from '@mui/material/Typography'
import type { TFunction } from 'i18next'
import { useState, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { isApiError } from '../../../lib/api-client'
import { getErrorText } from '../../../lib/error-text'
import { useRecoverTotp, useVerifyTotp } from '../api/verify-totp'

/** A refused code has its own text; anything else (such as throttling) the server's words. */
function codeErrorText(error: unknown, incorrect: string): string {
  if (isApiError(error) && error.status === 400) return incorrect
  return getErrorText(error)
}

/**
 * The 6-digit code of the authenticator app. It is sent as soon as the sixth digit is typed;
 * a refused code is cleared so the next one can be typed straight away.
 */
export function TotpCodeForm({ onVerified }: { onVerified: () => void }) {
  const { t } = useTranslation('auth')
  const verify = useVerifyTotp()
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState(false)

  const send = (value: string) => {
    if (value.length !== TOTP_CODE_LENGTH) {
      setInvalid(true)
      return
    }
    verify.mutate(value, { onSuccess: onVerified, onError: () => setCode('') })
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    send(code)
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {t('verify.intro')}
        </Typography>
        <ErrorAlert
          text={verify.error ? codeErrorText(verify.error, t('verify.incorrect')) : null}
        />
        <TextField
          value={code}
          onChange={(event) => {
            const value = event.target.value.replace(/\D/g, '').slice(0, TOTP_CODE_LENGTH)
            setCode(value)
            setInvalid(false)
            if (value.length === TOTP_CODE_LENGTH && !verify.isPending) send(value)
          }}
          label={t('verify.code')}
          autoComplete="one-time-code"
          autoFocus
          required
          fullWidth
          disabled={verify.isPending}
          error={invalid}
          helperText={invalid ? t('verify.codeLength') : undefined}
          slotProps={{
            htmlInput: {
              inputMode: 'numeric',
              pattern: '[0-9]*',
              maxLength: TOTP_CODE_LENGTH,
              style: { letterSpacing: '0.5em', textAlign: 'center' },
            },
          }}
        />
        <Button type="submit" variant="contained" size="large" fullWidth loading={verify.isPending}>
          {t('verify.submit')}
        </Button>
      </Stack>
    </form>
  )
}

function recoveryErrorText(error: unknown, t: TFunction<'auth'>): string {
  return codeErrorText(error, t('recovery.incorrect'))
}

/** The recovery code saved when two-factor sign-in was turned on. */
export function RecoveryCodeForm({ onVerified }: { onVerified: () => void }) {
  const { t } = useTranslation('auth')
  const recover = useRecoverTotp()
  const [code, setCode] = useState('')
  const [invalid, setInvalid] = useState(false)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const value = code.trim()
    if (!value) {
      setInvalid(true)
      return
    }
    recover.mutate(value, { onSuccess: onVerified })
  }

  return (
    <form noValidate onSubmit={submit}>
      <Stack spacing={2}>
        <Typography variant="body2" color="text.secondary">
          {t('recovery.intro')}
        </Typography>
        <ErrorAlert text={recover.error ? recoveryErrorText(recover.error, t) : null} />
        <TextField
          value={code}
          onChange={(event) => {
            setCode(event.target.value)
            setInvalid(false)
          }}
          label={t('recovery.code')}
          autoComplete="off"
          autoFocus
          required
          fullWidth
          error={invalid}
          helperText={invalid ? t('recovery.required') : undefined}
          slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'characters' } }}
        />
        <Button
          type="submit"
          variant="contained"
          size="large"
          fullWidth
          loading={recover.isPending}
        >
          {t('recovery.submit')}
        </Button>
      </Stack>
    </form>
  )
}
