import { type TerraformLockStatus, terraformRoutes } from '@flagman/contract'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { terraformKeys } from './terraform.query-keys'

/** The lock is read again this often while shown: runs take and release it on their own. */
export const LOCK_REFRESH_MS = 10_000

/** Whether the workspace's state is locked, and by whom. */
export function useTerraformLock(projectId: number, inventoryId: number) {
  return useQuery({
    refetchInterval: LOCK_REFRESH_MS,
    queryKey: terraformKeys.lock(projectId, inventoryId),
    queryFn: ({ signal }): Promise<TerraformLockStatus> =>
      api.call(terraformRoutes.getLock, {
        params: { project_id: projectId, inventory_id: inventoryId },
        signal,
      }),
  })
}

/** Removes the lock whoever holds it; the lock and the versions are read again after. */
export function useForceUnlock(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () =>
      api.call(terraformRoutes.forceUnlock, {
        params: { project_id: projectId, inventory_id: inventoryId },
      }),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: terraformKeys.workspace(projectId, inventoryId) }),
  })
}
