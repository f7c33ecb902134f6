import {
  type AccessKey,
  type Environment,
  environmentRoutes,
  type Inventory,
  inventoryRoutes,
  keyRoutes,
  type Repository,
  repositoryRoutes,
  type View,
  viewRoutes,
} from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from './templates.query-keys'

/** The project resources a template refers to, for its selects and its table columns. */
export function useTemplateResources(projectId: number) {
  const params = { project_id: projectId }
  const inventories = useQuery({
    queryKey: templateKeys.options(projectId, 'inventories'),
    queryFn: async ({ signal }): Promise<Inventory[]> =>
      (await api.call(inventoryRoutes.list, { params, signal })) ?? [],
  })
  const repositories = useQuery({
    queryKey: templateKeys.options(projectId, 'repositories'),
    queryFn: async ({ signal }): Promise<Repository[]> =>
      (await api.call(repositoryRoutes.list, { params, signal })) ?? [],
  })
  const environments = useQuery({
    queryKey: templateKeys.options(projectId, 'environments'),
    queryFn: async ({ signal }): Promise<Environment[]> =>
      (await api.call(environmentRoutes.list, { params, signal })) ?? [],
  })
  const keys = useQuery({
    queryKey: templateKeys.options(projectId, 'keys'),
    queryFn: async ({ signal }): Promise<AccessKey[]> =>
      (await api.call(keyRoutes.list, { params, signal })) ?? [],
  })
  const views = useQuery({
    queryKey: ['project', projectId, 'views'] as const,
    queryFn: async ({ signal }): Promise<View[]> =>
      (await api.call(viewRoutes.list, { params, signal })) ?? [],
  })
  return {
    inventories: inventories.data ?? [],
    repositories: repositories.data ?? [],
    environments: environments.data ?? [],
    keys: keys.data ?? [],
    views: views.data ?? [],
    error:
      inventories.error ?? repositories.error ?? environments.error ?? keys.error ?? views.error,
  }
}

/** The workspaces (inventories) of a Terraform or OpenTofu template. */
export function useTemplateWorkspaces(projectId: number, templateId: number, enabled: boolean) {
  return useQuery({
    queryKey: templateKeys.workspaces(projectId, templateId),
    queryFn: async ({ signal }): Promise<Inventory[]> =>
      (await api.call(inventoryRoutes.list, {
        params: { project_id: projectId },
        query: { template_id: templateId },
        signal,
      })) ?? [],
    enabled,
  })
}
