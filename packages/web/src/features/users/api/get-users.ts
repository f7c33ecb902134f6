import { listUsers, type User } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { userKeys } from './users.query-keys'

function isFullUser(user: unknown): user is User {
  return typeof user === 'object' && user !== null && 'email' in user && 'admin' in user
}

/** Full user records; the server sends them to admins, who are the only readers of this list. */
export const usersQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.list(),
    queryFn: async ({ signal }): Promise<User[]> =>
      ((await api.call(listUsers, { signal })) ?? []).filter(isFullUser),
  })

export function useUsers() {
  return useQuery(usersQueryOptions())
}
