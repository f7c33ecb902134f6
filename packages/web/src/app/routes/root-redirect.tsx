import { Navigate, useLocation } from 'react-router-dom'
import { paths } from '../../config/paths'
import { chooseProject } from '../../features/projects/utils/choose-project'
import { readStoredProjectId } from '../../lib/storage'
import { useSession } from '../session'

/** `/` and `/project`: open the project used last on this browser, or the first one. */
export function RootRedirect() {
  const { projects } = useSession()
  const { search } = useLocation()
  const project = chooseProject(projects, null, readStoredProjectId())
  if (!project) return <Navigate to={{ pathname: paths.newProject.href(), search }} replace />
  return <Navigate to={{ pathname: paths.project.href(project.id), search }} replace />
}
