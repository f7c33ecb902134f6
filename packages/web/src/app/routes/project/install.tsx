import { Navigate, useParams } from 'react-router-dom'
import { paths } from '../../../config/paths'
import { InstallPage, type InstallTab } from '../../../features/install/components/install-page'
import { useCurrentProject } from '../../project-context'
import { useSession } from '../../session'

/** `/install` is the artifacts tab; `/install/images` and `/install/configs` the others. */
export function InstallRoute() {
  const { tab } = useParams()
  const { project } = useCurrentProject()
  const { info } = useSession()
  const hrefs: Record<InstallTab, string> = {
    artifacts: paths.projectInstall.href(project.id),
    images: paths.projectInstall.href(project.id, 'images'),
    configs: paths.projectInstall.href(project.id, 'configs'),
  }
  if (tab !== undefined && tab !== 'images' && tab !== 'configs') {
    return <Navigate to={hrefs.artifacts} replace />
  }
  return <InstallPage tab={tab ?? 'artifacts'} hrefs={hrefs} serverVersion={info.version} />
}
