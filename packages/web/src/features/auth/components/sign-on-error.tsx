import { OIDC_ERRORS, type OidcError } from '@flagman/contract'
import Alert from '@mui/material/Alert'
import { useTranslation } from 'react-i18next'

function isOidcError(value: string): value is OidcError {
  return (OIDC_ERRORS as readonly string[]).includes(value)
}

/**
 * Why single sign-on sent the browser back to the sign-in page, from the `error` parameter
 * the server adds. Only known reasons are shown in words; the parameter's text never is.
 */
export function SignOnError({ code }: { code: string | null }) {
  const { t } = useTranslation('auth')
  if (!code?.startsWith('oidc_')) return null
  return (
    <Alert severity="error" role="alert">
      {isOidcError(code) ? t(`oidc.errors.${code}`) : t('oidc.errors.unknown')}
    </Alert>
  )
}
