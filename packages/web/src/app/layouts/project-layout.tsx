import Box from '@mui/material/Box'
import { useEffect, useMemo } from 'react'
import { Outlet, useLocation, useParams } from 'react-router-dom'
import { ErrorAlert } from '../../components/error-alert'
import { LoadingState } from '../../components/loading-state'
import { isProjectPage } from '../../config/paths'
import { useProjectRole } from '../../features/projects/api/get-project-role'
import { TaskLogHost } from '../../features/tasks/components/task-log-host'
import { storageKeys, storeProjectId, writeStorage } from '../../lib/storage'
import { NotFoundRoute } from '../routes/not-found'
import { makeCan, ProjectContext, type ProjectContextValue } from '../project-context'
import { useSession } from '../session'

/** A project route: checks the project exists, loads the user's role and remembers the visit. */
export function ProjectLayout() {
  const { projectId: rawId } = useParams()
  const { pathname } = useLocation()
  const { user, projects } = useSession()
  const projectId = rawId && /^\d+$/.test(rawId) ? Number(rawId) : null
  const index = projects.findIndex((project) => project.id === projectId)
  const project = index >= 0 ? projects[index] : undefined
  const role = useProjectRole(project ? project.id : null)

  const page = pathname.split('/')[3]
  useEffect(() => {
    if (!project) return
    storeProjectId(project.id)
    if (isProjectPage(page)) writeStorage(storageKeys.lastProjectPage(project.id), page)
  }, [project, page])

  const value = useMemo<ProjectContextValue | null>(() => {
    if (!project || !role.data) return null
    return {
      project,
      index,
      role: role.data.role,
      permissions: role.data.permissions,
      isAdmin: user.admin,
      can: makeCan(user.admin, role.data.permissions),
    }
  }, [project, index, role.data, user.admin])

  if (!project) return <NotFoundRoute kind="project" />
  if (role.error) {
    return (
      <Box sx={{ p: { xs: 2, sm: 3 } }}>
        <ErrorAlert error={role.error} />
      </Box>
    )
  }
  if (!value) return <LoadingState />
  return (
    <ProjectContext.Provider value={value}>
      <Outlet />
      <TaskLogHost projectId={value.project.id} />
    </ProjectContext.Provider>
  )
}
