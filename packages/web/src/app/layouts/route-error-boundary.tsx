import { useNavigate, useRouteError } from 'react-router-dom'
import { ErrorState } from '../../components/error-state'
import { paths } from '../../config/paths'

/** Shown when a page fails to render or its code can not be loaded (e.g. after an upgrade). */
export function RouteErrorBoundary() {
  const error = useRouteError()
  const navigate = useNavigate()
  return <ErrorState error={error} onRelogin={() => void navigate(paths.login.href())} />
}
