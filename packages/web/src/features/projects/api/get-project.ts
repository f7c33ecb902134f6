import { getProject } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export const projectQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: projectKeys.detail(projectId),
    queryFn: ({ signal }) => api.call(getProject, { params: { project_id: projectId }, signal }),
  })

export function useProject(projectId: number) {
  return useQuery(projectQueryOptions(projectId))
}
