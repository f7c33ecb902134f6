import {
  type CreateExtractValueBody,
  type IntegrationExtractValue,
  integrationValueRoutes,
} from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { integrationKeys } from './integrations.query-keys'

export function useExtractValues(projectId: number, integrationId: number) {
  return useQuery({
    queryKey: integrationKeys.values(projectId, integrationId),
    queryFn: async ({ signal }): Promise<IntegrationExtractValue[]> =>
      (await api.call(integrationValueRoutes.list, {
        params: { project_id: projectId, integration_id: integrationId },
        query: { sort: 'name', order: 'asc' },
        signal,
      })) ?? [],
  })
}

/** Creates an extracted value, or updates the one with `id`. */
export function useSaveExtractValue(projectId: number, integrationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async ({ id, body }: { id: number | null; body: CreateExtractValueBody }) => {
      const params = { project_id: projectId, integration_id: integrationId }
      if (id === null) {
        await api.call(integrationValueRoutes.create, { params, body })
      } else {
        await api.call(integrationValueRoutes.update, {
          params: { ...params, value_id: id },
          body: { ...body, id },
        })
      }
    },
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: integrationKeys.values(projectId, integrationId),
      }),
  })
}

export function useDeleteExtractValue(projectId: number, integrationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (value: IntegrationExtractValue) => {
      await api.call(integrationValueRoutes.remove, {
        params: { project_id: projectId, integration_id: integrationId, value_id: value.id },
      })
      return value
    },
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey: integrationKeys.values(projectId, integrationId),
      }),
  })
}
