import { getProjectRole } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export const projectRoleQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: projectKeys.role(projectId),
    queryFn: ({ signal }) =>
      api.call(getProjectRole, { params: { project_id: projectId }, signal }),
  })

export function useProjectRole(projectId: number | null) {
  return useQuery({ ...projectRoleQueryOptions(projectId ?? 0), enabled: projectId !== null })
}
