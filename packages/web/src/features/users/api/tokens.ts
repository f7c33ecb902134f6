import {
  createToken,
  expireToken,
  listTokens,
  type ApiToken,
  type CreateTokenBody,
} from '@flagman/contract'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'

export const tokenKeys = {
  list: ['user', 'tokens'] as const,
}

export const tokensQueryOptions = () =>
  queryOptions({
    queryKey: tokenKeys.list,
    queryFn: async ({ signal }): Promise<ApiToken[]> =>
      (await api.call(listTokens, { signal })) ?? [],
  })

/** The signed-in user's API tokens, newest first; lists show only each token's prefix. */
export function useTokens() {
  return useQuery(tokensQueryOptions())
}

/** Creates a token; the answer is the only time the whole token is shown. */
export function useCreateToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateTokenBody): Promise<ApiToken> => api.call(createToken, { body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.list }),
  })
}

/** Revokes one of the signed-in user's tokens, named by its prefix. */
export function useRevokeToken() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (token: ApiToken) => {
      await api.call(expireToken, { params: { token_id: token.prefix } })
      return token
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tokenKeys.list }),
  })
}
