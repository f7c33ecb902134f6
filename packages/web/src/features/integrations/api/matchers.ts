import {
  type CreateMatcherBody,
  type IntegrationMatcher,
  integrationMatcherRoutes,
} from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { integrationKeys } from './integrations.query-keys'

export function useMatchers(projectId: number, integrationId: number) {
  return useQuery({
    queryKey: integrationKeys.matchers(projectId, integrationId),
    queryFn: async ({ signal }): Promise<IntegrationMatcher[]> =>
      (await api.call(integrationMatcherRoutes.list, {
        params: { project_id: projectId, integration_id: integrationId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })
}

/** Creates a matcher, or updates the one with `id`. */
export function useSaveMatcher(projectId: number, integrationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | null; body: CreateMatcherBody }) => {
      const params = { project_id: projectId, integration_id: integrationId }
      if (id === null) {
        await api.call(integrationMatcherRoutes.create, { params, body })
      } else {
        await api.call(integrationMatcherRoutes.update, {
          params: { ...params, matcher_id: id },
          body: { ...body, id },
        })
      }
    },
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: integrationKeys.matchers(projectId, integrationId),
      }),
  })
}

export function useDeleteMatcher(projectId: number, integrationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (matcher: IntegrationMatcher) => {
      await api.call(integrationMatcherRoutes.remove, {
        params: { project_id: projectId, integration_id: integrationId, matcher_id: matcher.id },
      })
      return matcher
    },
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: integrationKeys.matchers(projectId, integrationId),
      }),
  })
}
