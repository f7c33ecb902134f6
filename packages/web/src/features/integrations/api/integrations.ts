import {
  type CreateIntegrationBody,
  type Integration,
  type IntegrationDelivery,
  integrationRoutes,
  type Refs,
  type UpdateIntegrationBody,
} from '@flagman/contract'
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { DELIVERIES_REFRESH_MS } from '../utils/constants'
import { integrationKeys } from './integrations.query-keys'

export const integrationsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: integrationKeys.list(projectId),
    queryFn: async ({ signal }): Promise<Integration[]> =>
      (await api.call(integrationRoutes.list, {
        params: { project_id: projectId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })

export function useIntegrations(projectId: number) {
  return useQuery(integrationsQueryOptions(projectId))
}

export function useIntegration(projectId: number, integrationId: number | null) {
  return useQuery({
    queryKey: integrationKeys.item(projectId, integrationId ?? 0),
    queryFn: ({ signal }) =>
      api.call(integrationRoutes.get, {
        params: { project_id: projectId, integration_id: integrationId ?? 0 },
        signal,
      }),
    enabled: integrationId !== null,
  })
}

export function useCreateIntegration(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateIntegrationBody) =>
      api.call(integrationRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: integrationKeys.list(projectId) }),
  })
}

export function useUpdateIntegration(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateIntegrationBody) =>
      api.call(integrationRoutes.update, {
        params: { project_id: projectId, integration_id: body.id },
        body,
      }),
    onSuccess: (_, body) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: integrationKeys.list(projectId) }),
        queryClient.invalidateQueries({ queryKey: integrationKeys.item(projectId, body.id) }),
      ]),
  })
}

export function useDeleteIntegration(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (item: Integration) => {
      await api.call(integrationRoutes.remove, {
        params: { project_id: projectId, integration_id: item.id },
      })
      return item
    },
    onSuccess: (item) => {
      queryClient.removeQueries({ queryKey: integrationKeys.item(projectId, item.id) })
      return queryClient.invalidateQueries({ queryKey: integrationKeys.list(projectId) })
    },
  })
}

/**
 * Who uses the integration; asked right before deleting it, so never cached. Nothing refers
 * to an integration (the server answers with a placeholder), so the answer has no references,
 * and a failed lookup still ends in the normal confirmation.
 */
export async function fetchIntegrationRefs(
  projectId: number,
  integrationId: number,
): Promise<Refs> {
  await api.call(integrationRoutes.refs, {
    params: { project_id: projectId, integration_id: integrationId },
  })
  return { templates: [], inventories: [], repositories: [], integrations: [], schedules: [] }
}

/** The last deliveries to the integration, newest first, read again every few seconds. */
export function useDeliveries(projectId: number, integrationId: number) {
  return useQuery({
    queryKey: integrationKeys.deliveries(projectId, integrationId),
    queryFn: async ({ signal }): Promise<IntegrationDelivery[]> =>
      (await api.call(integrationRoutes.deliveries, {
        params: { project_id: projectId, integration_id: integrationId },
        signal,
      })) ?? [],
    refetchInterval: DELIVERIES_REFRESH_MS,
  })
}
