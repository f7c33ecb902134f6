import type { QueryClient } from '@tanstack/react-query'
import { isProjectPage } from '../config/paths'
import { currentUserQueryOptions } from '../features/auth/api/get-current-user'
import { projectsQueryOptions } from '../features/projects/api/get-projects'
import { projectRoleQueryOptions } from '../features/projects/api/get-project-role'
import { infoQueryOptions } from '../features/system/api/get-info'
import { projectTasksQueryOptions } from '../features/tasks/api/tasks'

/** The project page an address shows first, as far as it is known before the project is. */
function projectPage(page: string | undefined, lastPage: string | null): string {
  if (page !== undefined) return page
  return isProjectPage(lastPage) ? lastPage : 'history'
}

/**
 * Asks for the data every signed-in page waits for while the page's code is still loading, so
 * the first render does not wait for code, then data, then more data. Failures are left in the
 * cache for the app root to handle as it would its own requests.
 */
export async function prefetchSession(
  queryClient: QueryClient,
  pathname: string,
  lastProjectPage: (projectId: number) => string | null,
): Promise<void> {
  if (pathname.startsWith('/auth/')) return
  try {
    await queryClient.fetchQuery(currentUserQueryOptions())
  } catch {
    return
  }
  void queryClient.prefetchQuery(infoQueryOptions())
  const projects = queryClient.fetchQuery(projectsQueryOptions()).catch(() => [])
  const projectId = Number(/^\/project\/(\d+)(\/|$)/.exec(pathname)?.[1] ?? NaN)
  if (Number.isNaN(projectId)) return
  void queryClient.prefetchQuery(projectRoleQueryOptions(projectId))
  // The task history, the default page, is asked for too; subscription projects have none.
  const page = pathname.split('/')[3] || undefined
  if (projectPage(page, lastProjectPage(projectId)) !== 'history') return
  const project = (await projects).find(({ id }) => id === projectId)
  if (project && project.type !== 'premium') {
    void queryClient.prefetchInfiniteQuery(projectTasksQueryOptions(projectId))
  }
}
