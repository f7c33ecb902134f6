import {
  type CreateInventoryBody,
  type Inventory,
  inventoryRoutes,
  templateRoutes,
  type UpdateInventoryBody,
  type UpdateTemplateBody,
} from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from './templates.query-keys'

/** The inventory type of a template's workspaces: `terraform-workspace` or `tofu-workspace`. */
export function workspaceType(app: string): string {
  return `${app}-workspace`
}

/** Workspace changes: each refreshes the template's workspaces and the inventory choices. */
export function useWorkspaceMutations(projectId: number) {
  const queryClient = useQueryClient()
  const params = { project_id: projectId }
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: templateKeys.all(projectId) })
  return {
    create: useMutation({
      mutationFn: (body: CreateInventoryBody) => api.call(inventoryRoutes.create, { params, body }),
      onSuccess,
    }),
    update: useMutation({
      mutationFn: (body: UpdateInventoryBody) =>
        api.call(inventoryRoutes.update, { params: { ...params, inventory_id: body.id }, body }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: async (workspace: Inventory) => {
        await api.call(inventoryRoutes.remove, {
          params: { ...params, inventory_id: workspace.id },
        })
        return workspace
      },
      onSuccess,
    }),
    makeDefault: useMutation({
      mutationFn: (body: UpdateTemplateBody) =>
        api.call(templateRoutes.update, { params: { ...params, template_id: body.id }, body }),
      onSuccess,
    }),
  }
}

/** The body that saves a workspace inventory with its owner changed (attach or detach). */
export function ownedBy(workspace: Inventory, templateId: number | null): UpdateInventoryBody {
  return {
    id: workspace.id,
    name: workspace.name,
    project_id: workspace.project_id,
    type: workspace.type as UpdateInventoryBody['type'],
    inventory: workspace.inventory,
    ssh_key_id: workspace.ssh_key_id,
    become_key_id: workspace.become_key_id,
    repository_id: workspace.repository_id,
    template_id: templateId,
  }
}
