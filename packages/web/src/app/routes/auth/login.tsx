import HelpOutlinedIcon from '@mui/icons-material/HelpOutlined'
import Box from '@mui/material/Box'
import Button from '@mui/material/Button'
import Divider from '@mui/material/Divider'
import Paper from '@mui/material/Paper'
import Stack from '@mui/material/Stack'
import Typography from '@mui/material/Typography'
import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom'
import { ErrorAlert } from '../../../components/error-alert'
import { LoadingState } from '../../../components/loading-state'
import { NEW_PROJECT_PARAM, oidcLoginHref, paths } from '../../../config/paths'
import { useCurrentUser } from '../../../features/auth/api/get-current-user'
import { useLoginMetadata } from '../../../features/auth/api/get-login-metadata'
import { LoginForm } from '../../../features/auth/components/login-form'
import { LoginHelpDialog } from '../../../features/auth/components/login-help-dialog'
import { OidcButtons } from '../../../features/auth/components/oidc-buttons'
import { SignOnError } from '../../../features/auth/components/sign-on-error'
import { isTotpRequired } from '../../../lib/api-client'

/** The query to carry into the console, without the sign-in page's own `error`. */
function withoutError(search: string): string {
  const params = new URLSearchParams(search)
  params.delete('error')
  const rest = params.toString()
  return rest ? `?${rest}` : ''
}

export function LoginRoute() {
  const { t } = useTranslation('auth')
  const search = withoutError(useLocation().search)
  const [searchParams] = useSearchParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const currentUser = useCurrentUser()
  const metadata = useLoginMetadata()
  const [helpOpen, setHelpOpen] = useState(false)

  // Already signed in: go straight into the console.
  if (currentUser.isSuccess)
    return <Navigate to={{ pathname: paths.root.href(), search }} replace />
  // Signed in by password, but the second factor is still missing.
  if (isTotpRequired(currentUser.error))
    return <Navigate to={{ pathname: paths.verify.href(), search }} replace />
  // Wait for the first answer only: later checks must not unmount a form being filled in.
  const checkingSession = currentUser.isPending && !currentUser.isFetchedAfterMount
  if (metadata.isPending || checkingSession) return <LoadingState fullPage />

  const premium = searchParams.get(NEW_PROJECT_PARAM) === 'premium'
  const providers = metadata.data?.oidc_providers ?? []
  const withPassword = metadata.data?.login_with_password ?? true

  const signedIn = () => {
    // Answers cached while signed out (the 401 of the current user) must not be reused.
    queryClient.removeQueries()
    void navigate({ pathname: paths.root.href(), search }, { replace: true })
  }

  return (
    <Box
      component="main"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        p: 2,
        bgcolor: 'background.default',
      }}
    >
      <Paper variant="outlined" sx={{ width: '100%', maxWidth: 400, p: { xs: 3, sm: 4 } }}>
        <Stack spacing={3}>
          <Box sx={{ textAlign: 'center' }}>
            <Box component="img" src="/favicon.svg" alt="" sx={{ width: 48, height: 48 }} />
            <Typography variant="h5" component="h1" sx={{ mt: 1 }}>
              {t('login.title')}
            </Typography>
          </Box>
          <ErrorAlert error={metadata.error} />
          <SignOnError code={searchParams.get('error')} />
          <OidcButtons
            providers={providers}
            hrefFor={(provider) =>
              oidcLoginHref(provider.id, premium ? paths.newPremiumProject.href() : undefined)
            }
          />
          {providers.length > 0 && withPassword ? <Divider>{t('login.or')}</Divider> : null}
          {withPassword ? <LoginForm onSignedIn={signedIn} /> : null}
          <Button
            variant="text"
            size="small"
            startIcon={<HelpOutlinedIcon />}
            onClick={() => setHelpOpen(true)}
            sx={{ alignSelf: 'center' }}
          >
            {t('login.help')}
          </Button>
        </Stack>
      </Paper>
      <LoginHelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
    </Box>
  )
}
