import type { TotpEnrolment, User } from '@flagman/contract'
import ContentCopyIcon from '@mui/icons-material/ContentCopy'
import Alert from '@mui/material/Alert'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import IconButton from '@mui/material/IconButton'
import InputAdornment from '@mui/material/InputAdornment'
import Stack from '@mui/material/Stack'
import TextField from '@mui/material/TextField'
import Tooltip from '@mui/material/Tooltip'
import Typography from '@mui/material/Typography'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ErrorAlert } from '../../../components/error-alert'
import { useSnackbar } from '../../../hooks/use-snackbar'
import { totpQrSrc, useDisableTotp, useEnableTotp } from '../api/totp'
import { copyToClipboard } from '../utils/copy-to-clipboard'

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** A read-only text with a button that copies it. */
export function CopyField({
  label,
  value,
  copyLabel,
  onCopy,
  monospace = false,
}: {
  label: string
  value: string
  copyLabel: string
  onCopy: () => void
  monospace?: boolean
}) {
  return (
    <TextField
      label={label}
      value={value}
      fullWidth
      size="small"
      slotProps={{
        htmlInput: {
          readOnly: true,
          spellCheck: false,
          style: monospace ? { fontFamily: 'monospace', letterSpacing: '0.1em' } : undefined,
        },
        input: {
          endAdornment: (
            <InputAdornment position="end">
              <Tooltip title={copyLabel}>
                <IconButton edge="end" onClick={onCopy} aria-label={copyLabel}>
                  <ContentCopyIcon fontSize="small" />
                </IconButton>
              </Tooltip>
            </InputAdornment>
          ),
        },
      }}
    />
  )
}

/**
 * Two-factor sign-in of the signed-in user: turning it on shows the QR code, the
 * `otpauth://` address and the recovery code, this once; turning it off deletes the secret.
 */
export function TwoFactorSection({ user }: { user: User }) {
  const { t } = useTranslation('users')
  const { showMessage } = useSnackbar()
  const enable = useEnableTotp()
  const disable = useDisableTotp()
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null)

  const copy = async (text: string, success: string, failure: (reason: string) => string) => {
    try {
      await copyToClipboard(text)
      showMessage(success)
    } catch (error) {
      showMessage(failure(reasonOf(error)), 'error')
    }
  }

  const shown = enrolment
  const totpId = user.totp?.id ?? enrolment?.id

  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ mb: 1.5, fontWeight: 600 }}>
        {t('twoFactor.title')}
      </Typography>
      <ErrorAlert error={enable.error ?? disable.error} />
      {shown ? (
        <Stack spacing={2}>
          <Typography variant="body2">{t('twoFactor.scan')}</Typography>
          <Box
            component="img"
            src={totpQrSrc(shown.user_id, shown.id)}
            alt={t('twoFactor.qrAlt')}
            sx={{ width: 200, height: 200, alignSelf: 'center', bgcolor: '#fff', p: 1 }}
          />
          <CopyField
            label={t('twoFactor.url')}
            value={shown.url}
            copyLabel={t('twoFactor.copyUrl')}
            onCopy={() =>
              void copy(shown.url, t('twoFactor.urlCopied'), (reason) =>
                t('twoFactor.urlCopyFailed', { reason }),
              )
            }
          />
          {shown.recovery_code ? (
            <>
              <Alert severity="warning">{t('twoFactor.recoveryHint')}</Alert>
              <CopyField
                label={t('twoFactor.recoveryCode')}
                value={shown.recovery_code}
                monospace
                copyLabel={t('twoFactor.copyRecoveryCode')}
                onCopy={() =>
                  void copy(shown.recovery_code ?? '', t('twoFactor.recoveryCopied'), (reason) =>
                    t('twoFactor.recoveryCopyFailed', { reason }),
                  )
                }
              />
            </>
          ) : null}
        </Stack>
      ) : (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
          {totpId === undefined ? t('twoFactor.off') : t('twoFactor.on')}
        </Typography>
      )}
      <Box sx={{ mt: shown ? 2 : 0 }}>
        {totpId !== undefined ? (
          <Button
            variant="outlined"
            color="error"
            loading={disable.isPending}
            onClick={() =>
              disable.mutate(
                { user, totpId },
                {
                  onSuccess: () => {
                    setEnrolment(null)
                    enable.reset()
                    showMessage(t('twoFactor.disabled'))
                  },
                },
              )
            }
          >
            {t('twoFactor.disable')}
          </Button>
        ) : (
          <Button
            variant="outlined"
            loading={enable.isPending}
            onClick={() =>
              enable.mutate(user.id, {
                onSuccess: (created) => {
                  setEnrolment(created)
                  disable.reset()
                  showMessage(t('twoFactor.enabled'))
                },
              })
            }
          >
            {t('twoFactor.enable')}
          </Button>
        )}
      </Box>
    </Box>
  )
}
