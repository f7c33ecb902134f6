import { type IntegrationAlias, integrationAliasRoutes } from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { integrationKeys } from './integrations.query-keys'

/**
 * The aliases of one integration, or with `integrationId` null those of the project, which
 * reach every searchable integration.
 */
export function useAliases(projectId: number, integrationId: number | null) {
  return useQuery({
    queryKey:
      integrationId === null
        ? integrationKeys.projectAliases(projectId)
        : integrationKeys.aliases(projectId, integrationId),
    queryFn: async ({ signal }): Promise<IntegrationAlias[]> =>
      (integrationId === null
        ? await api.call(integrationAliasRoutes.listProject, {
            params: { project_id: projectId },
            signal,
          })
        : await api.call(integrationAliasRoutes.list, {
            params: { project_id: projectId, integration_id: integrationId },
            signal,
          })) ?? [],
  })
}

export function useCreateAlias(projectId: number, integrationId: number | null) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      integrationId === null
        ? api.call(integrationAliasRoutes.createProject, { params: { project_id: projectId } })
        : api.call(integrationAliasRoutes.create, {
            params: { project_id: projectId, integration_id: integrationId },
          }),
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey:
          integrationId === null
            ? integrationKeys.projectAliases(projectId)
            : integrationKeys.aliases(projectId, integrationId),
      }),
  })
}

export function useDeleteAlias(projectId: number, integrationId: number | null) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (alias: IntegrationAlias) => {
      if (integrationId === null) {
        await api.call(integrationAliasRoutes.removeProject, {
          params: { project_id: projectId, alias_id: alias.id },
        })
      } else {
        await api.call(integrationAliasRoutes.remove, {
          params: { project_id: projectId, integration_id: integrationId, alias_id: alias.id },
        })
      }
      return alias
    },
    onSuccess: () =>
      queryClient.invalidateQueries({
        queryKey:
          integrationId === null
            ? integrationKeys.projectAliases(projectId)
            : integrationKeys.aliases(projectId, integrationId),
      }),
  })
}
