import { listProjects, type Project } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export const projectsQueryOptions = () =>
  queryOptions({
    queryKey: projectKeys.list(),
    // Upstream servers answer `null` for an empty list; treat it as no projects.
    queryFn: async ({ signal }): Promise<Project[]> =>
      (await api.call(listProjects, { signal })) ?? [],
  })

export function useProjects() {
  return useQuery(projectsQueryOptions())
}
