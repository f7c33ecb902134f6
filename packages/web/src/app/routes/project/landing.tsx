import { Navigate, useLocation } from 'react-router-dom'
import { isProjectPage, paths } from '../../../config/paths'
import { readStorage, storageKeys } from '../../../lib/storage'
import { useCurrentProject } from '../../project-context'

/** `/project/{id}`: the page of this project visited last, else its default page. */
export function ProjectLanding() {
  const { project, can } = useCurrentProject()
  const { search } = useLocation()
  const premium = project.type === 'premium'
  const stored = readStorage(storageKeys.lastProjectPage(project.id))
  let page = premium ? 'team' : 'history'
  if (isProjectPage(stored) && !(premium && stored === 'history')) page = stored
  if (page === 'settings' && !can('updateProject')) page = premium ? 'team' : 'history'
  return <Navigate to={{ pathname: `${paths.project.href(project.id)}/${page}`, search }} replace />
}
