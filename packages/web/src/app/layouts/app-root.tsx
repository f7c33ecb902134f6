import type { Project } from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { lazy, Suspense, useMemo, useState } from 'react'
import { Navigate, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router-dom'
import { ErrorState } from '../../components/error-state'
import { LoadingState } from '../../components/loading-state'
import { NEW_PROJECT_PARAM, paths } from '../../config/paths'
import { useCurrentUser } from '../../features/auth/api/get-current-user'
import { useLogout } from '../../features/auth/api/logout'
import { projectsQueryOptions } from '../../features/projects/api/get-projects'
import { infoQueryOptions } from '../../features/system/api/get-info'
import { isUnauthorized } from '../../lib/api-client'
import { storeProjectId } from '../../lib/storage'
import { type Session, SessionContext } from '../session'

// Its form and schemas load when it is first opened, not with every signed-in page.
const NewProjectDialog = lazy(async () => ({
  default: (await import('../../features/projects/components/new-project-dialog')).NewProjectDialog,
}))

/** Paths where having no project sends the user to the new-project page. */
function needsProject(pathname: string): boolean {
  return (
    pathname === '/' || /^\/project\/?$/.test(pathname) || /^\/project\/\d+(\/|$)/.test(pathname)
  )
}

function isNewProjectPage(pathname: string): boolean {
  return pathname === paths.newProject.path || pathname === paths.newPremiumProject.path
}

/**
 * The signed-in part of the console. It loads the user, the server information and the projects
 * before anything else, and turns a failure into the sign-in page (401) or the error state.
 */
export function AppRoot() {
  const location = useLocation()
  const navigate = useNavigate()
  const [searchParams, setSearchParams] = useSearchParams()
  const user = useCurrentUser()
  const signedIn = user.isSuccess
  const info = useQuery({ ...infoQueryOptions(), enabled: signedIn })
  const projects = useQuery({ ...projectsQueryOptions(), enabled: signedIn })
  const logout = useLogout()
  // Once opened, the dialog stays mounted so that it can close with its transition.
  const [dialogUsed, setDialogUsed] = useState(false)

  const session = useMemo<Session | null>(
    () =>
      user.data && info.data && projects.data
        ? { user: user.data, info: info.data, projects: projects.data }
        : null,
    [user.data, info.data, projects.data],
  )

  const relogin = () =>
    logout.mutate(undefined, {
      onSettled: () => void navigate(paths.login.href(), { replace: true }),
    })

  if ([user.error, info.error, projects.error].some(isUnauthorized)) {
    return <Navigate to={{ pathname: paths.login.path, search: location.search }} replace />
  }
  if (!session) {
    const error = user.error ?? info.error ?? projects.error
    if (error) return <ErrorState error={error} onRelogin={relogin} />
    return <LoadingState fullPage />
  }

  const newProjectParam = searchParams.get(NEW_PROJECT_PARAM)
  const premium = newProjectParam === 'premium'
  const newProjectOpen =
    newProjectParam !== null &&
    session.user.can_create_project &&
    !isNewProjectPage(location.pathname)
  if (newProjectOpen && !dialogUsed) setDialogUsed(true)
  if (session.projects.length === 0 && needsProject(location.pathname)) {
    return (
      <Navigate to={premium ? paths.newPremiumProject.href() : paths.newProject.href()} replace />
    )
  }

  const closeNewProject = () =>
    setSearchParams(
      (params) => {
        params.delete(NEW_PROJECT_PARAM)
        return params
      },
      { replace: true },
    )
  const openProject = (project: Project) => {
    storeProjectId(project.id)
    void navigate(paths.project.href(project.id))
  }

  return (
    <SessionContext.Provider value={session}>
      <Suspense fallback={<LoadingState fullPage />}>
        <Outlet />
      </Suspense>
      {dialogUsed && (
        <Suspense fallback={null}>
          <NewProjectDialog
            open={newProjectOpen}
            premium={premium}
            onClose={closeNewProject}
            onCreated={openProject}
          />
        </Suspense>
      )}
    </SessionContext.Provider>
  )
}
