import Button from '@mui/material/Button'
import Stack from '@mui/material/Stack'
import { useQueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link as RouterLink, Navigate, useLocation, useNavigate } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { paths } from '../../../config/paths'
import { useCurrentUser } from '../../../features/auth/api/get-current-user'
import { useLoginMetadata } from '../../../features/auth/api/get-login-metadata'
import { useLogout } from '../../../features/auth/api/logout'
import { AuthCard } from '../../../features/auth/components/auth-card'
import { RecoveryCodeForm, TotpCodeForm } from '../../../features/auth/components/totp-forms'
import { isTotpRequired } from '../../../lib/api-client'

type Step = 'code' | 'recovery'

/**
 * The second sign-in step, shown while the server answers TOTP_REQUIRED: the code of the
 * authenticator app or, when the server allows it, the recovery code. Signed-in users go into
 * the console and signed-out ones back to the sign-in page.
 */
function SecondFactor({ step }: { step: Step }) {
  const { t } = useTranslation('auth')
  const { search } = useLocation()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const currentUser = useCurrentUser()
  const metadata = useLoginMetadata()
  const logout = useLogout()

  if (currentUser.isSuccess)
    return <Navigate to={{ pathname: paths.root.href(), search }} replace />
  if (currentUser.isError && !isTotpRequired(currentUser.error))
    return <Navigate to={{ pathname: paths.login.href(), search }} replace />
  if (currentUser.isPending || metadata.isPending) return <LoadingState fullPage />

  const allowRecovery = metadata.data?.auth_methods.totp?.allow_recovery ?? false
  if (step === 'recovery' && !allowRecovery)
    return <Navigate to={{ pathname: paths.verify.href(), search }} replace />

  const verified = () => {
    // Answers cached before the second factor (the 401 of the current user) must not be reused.
    queryClient.removeQueries()
    void navigate({ pathname: paths.root.href(), search }, { replace: true })
  }
  const signOut = () =>
    logout.mutate(undefined, {
      onSettled: () => void navigate({ pathname: paths.login.href(), search }, { replace: true }),
    })

  let switchLink: ReactNode = null
  if (step === 'code' && allowRecovery) {
    switchLink = (
      <Button component={RouterLink} to={{ pathname: paths.recovery.href(), search }} size="small">
        {t('verify.useRecovery')}
      </Button>
    )
  } else if (step === 'recovery') {
    switchLink = (
      <Button component={RouterLink} to={{ pathname: paths.verify.href(), search }} size="small">
        {t('recovery.useApp')}
      </Button>
    )
  }

  return (
    <AuthCard title={step === 'code' ? t('verify.title') : t('recovery.title')}>
      <ErrorAlert error={metadata.error} />
      {step === 'code' ? (
        <TotpCodeForm onVerified={verified} />
      ) : (
        <RecoveryCodeForm onVerified={verified} />
      )}
      <Stack direction="row" sx={{ justifyContent: 'space-between', flexWrap: 'wrap' }}>
        {switchLink ?? <span />}
        <Button size="small" onClick={signOut} loading={logout.isPending}>
          {t('verify.signOut')}
        </Button>
      </Stack>
    </AuthCard>
  )
}

export function VerifyRoute() {
  return <SecondFactor step="code" />
}

export function RecoveryRoute() {
  return <SecondFactor step="recovery" />
}
