import { type TerraformAlias, terraformRoutes } from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { terraformKeys } from './terraform.query-keys'

/** The HTTP-backend addresses of a workspace, for use from outside the server's tasks. */
export function useTerraformAliases(projectId: number, inventoryId: number) {
  return useQuery({
    queryKey: terraformKeys.aliases(projectId, inventoryId),
    queryFn: async ({ signal }): Promise<TerraformAlias[]> =>
      (await api.call(terraformRoutes.listAliases, {
        params: { project_id: projectId, inventory_id: inventoryId },
        signal,
      })) ?? [],
  })
}

/** New, changed and deleted aliases; each refreshes the workspace's list. */
export function useTerraformAliasMutations(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient()
  const params = { project_id: projectId, inventory_id: inventoryId }
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: terraformKeys.aliases(projectId, inventoryId) })
  return {
    create: useMutation({
      mutationFn: (authKeyId: number) =>
        api.call(terraformRoutes.createAlias, { params, body: { auth_key_id: authKeyId } }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: async ({ alias, authKeyId }: { alias: TerraformAlias; authKeyId: number }) => {
        await api.call(terraformRoutes.updateAlias, {
          params: { ...params, alias_id: alias.id },
          body: { auth_key_id: authKeyId },
        })
        return alias
      },
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: async (alias: TerraformAlias) => {
        await api.call(terraformRoutes.removeAlias, { params: { ...params, alias_id: alias.id } })
        return alias
      },
      onSuccess,
    }),
  }
}
