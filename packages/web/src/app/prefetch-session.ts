import type { QueryClient } from '@tanstack/react-query'
import { currentUserQueryOptions } from '../features/auth/api/get-current-user'
import { projectsQueryOptions } from '../features/projects/api/get-projects'
import { projectRoleQueryOptions } from '../features/projects/api/get-project-role'
import { infoQueryOptions } from '../features/system/api/get-info'

/**
 * Asks for the data every signed-in page waits for while the page's code is still loading, so
 * the first render does not wait for code, then data, then more data. Failures are left in the
 * cache for the app root to handle as it would its own requests.
 */
export async function prefetchSession(queryClient: QueryClient, pathname: string): Promise<void> {
  if (pathname.startsWith('/auth/')) return
  try {
    await queryClient.fetchQuery(currentUserQueryOptions())
  } catch {
    return
  }
  void queryClient.prefetchQuery(infoQueryOptions())
  void queryClient.prefetchQuery(projectsQueryOptions())
  const projectId = /^\/project\/(\d+)(\/|$)/.exec(pathname)?.[1]
  if (projectId) void queryClient.prefetchQuery(projectRoleQueryOptions(Number(projectId)))
}
