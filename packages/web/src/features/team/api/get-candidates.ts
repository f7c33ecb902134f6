import { listUsers } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { teamKeys } from './team.query-keys'

export interface Candidate {
  id: number
  name: string
  username: string
}

/** Every user, as far as the viewer may see them: id, name and username are enough here. */
export const candidatesQueryOptions = () =>
  queryOptions({
    queryKey: teamKeys.candidates,
    queryFn: async ({ signal }): Promise<Candidate[]> =>
      ((await api.call(listUsers, { signal })) ?? []).map(({ id, name, username }) => ({
        id,
        name,
        username,
      })),
  })

export function useCandidates(enabled: boolean) {
  return useQuery({ ...candidatesQueryOptions(), enabled })
}
