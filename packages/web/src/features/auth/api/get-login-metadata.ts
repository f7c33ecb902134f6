import { getLoginMetadata } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { authKeys } from './auth.query-keys'

export const loginMetadataQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.loginMetadata,
    queryFn: ({ signal }) => api.call(getLoginMetadata, { signal }),
    staleTime: Infinity,
  })

export function useLoginMetadata() {
  return useQuery(loginMetadataQueryOptions())
}
