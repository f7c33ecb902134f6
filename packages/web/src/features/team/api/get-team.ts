import { listTeam, type TeamMember } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { teamKeys } from './team.query-keys'

export const teamQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: teamKeys.list(projectId),
    queryFn: async ({ signal }): Promise<TeamMember[]> =>
      (await api.call(listTeam, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useTeam(projectId: number) {
  return useQuery(teamQueryOptions(projectId))
}
