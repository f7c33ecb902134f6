import { getCurrentUser } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { authKeys } from './auth.query-keys'

export const currentUserQueryOptions = () =>
  queryOptions({
    queryKey: authKeys.currentUser,
    queryFn: ({ signal }) => api.call(getCurrentUser, { signal }),
    retry: false,
  })

export function useCurrentUser() {
  return useQuery(currentUserQueryOptions())
}
