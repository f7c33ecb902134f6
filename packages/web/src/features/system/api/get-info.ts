import { getInfo } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export const infoQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'info'] as const,
    queryFn: ({ signal }) => api.call(getInfo, { signal }),
    staleTime: 5 * 60_000,
  })

export function useSystemInfo() {
  return useQuery(infoQueryOptions())
}
