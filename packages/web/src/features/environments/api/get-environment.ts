import { type Environment, environmentRoutes } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { environmentKeys } from './environments.query-keys'

/** One environment with its secrets (names only), which the list leaves out. */
export const environmentQueryOptions = (projectId: number, environmentId: number) =>
  queryOptions({
    queryKey: environmentKeys.detail(projectId, environmentId),
    queryFn: ({ signal }): Promise<Environment> =>
      api.call(environmentRoutes.get, {
        params: { project_id: projectId, environment_id: environmentId },
        signal,
      }),
    // Never from an earlier visit: the form diffs its secrets against the stored state.
    gcTime: 0,
  })

export function useEnvironment(projectId: number, environmentId: number | null) {
  return useQuery({
    ...environmentQueryOptions(projectId, environmentId ?? 0),
    enabled: environmentId !== null,
  })
}
