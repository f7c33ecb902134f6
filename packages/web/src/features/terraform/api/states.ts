import { type TerraformState, type TerraformStateDiff, terraformRoutes } from '@flagman/contract'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { terraformKeys } from './terraform.query-keys'

/** State versions are listed this many at a time; "Show more" asks for the next ones too. */
export const STATES_PAGE_SIZE = 20

/** The newest `limit` state versions of a workspace, without their text. */
export function useTerraformStates(projectId: number, inventoryId: number, limit: number) {
  return useQuery({
    queryKey: terraformKeys.stateList(projectId, inventoryId, limit),
    queryFn: async ({ signal }): Promise<TerraformState[]> =>
      (await api.call(terraformRoutes.listStates, {
        params: { project_id: projectId, inventory_id: inventoryId },
        query: { limit },
        signal,
      })) ?? [],
    // A longer page keeps showing the shorter one while it loads.
    placeholderData: keepPreviousData,
  })
}

/** One version with its state text, read only once it is shown. */
export function useTerraformState(
  projectId: number,
  inventoryId: number,
  stateId: number,
  enabled: boolean,
) {
  return useQuery({
    queryKey: terraformKeys.state(projectId, inventoryId, stateId),
    queryFn: ({ signal }) =>
      api.call(terraformRoutes.getState, {
        params: { project_id: projectId, inventory_id: inventoryId, state_id: stateId },
        signal,
      }),
    enabled,
  })
}

/** Resources added, changed and removed between two versions; null ids ask for nothing. */
export function useTerraformStateDiff(
  projectId: number,
  inventoryId: number,
  from: number | null,
  to: number | null,
) {
  return useQuery({
    queryKey: terraformKeys.diff(projectId, inventoryId, from ?? 0, to ?? 0),
    queryFn: ({ signal }): Promise<TerraformStateDiff> =>
      api.call(terraformRoutes.diffStates, {
        params: { project_id: projectId, inventory_id: inventoryId },
        query: { from: from ?? 0, to: to ?? 0 },
        signal,
      }),
    enabled: from !== null && to !== null && from !== to,
  })
}

/** Restore and delete of versions; both refresh the versions and the lock. */
export function useTerraformStateMutations(projectId: number, inventoryId: number) {
  const queryClient = useQueryClient()
  const params = { project_id: projectId, inventory_id: inventoryId }
  const onSuccess = () =>
    queryClient.invalidateQueries({ queryKey: terraformKeys.workspace(projectId, inventoryId) })
  return {
    restore: useMutation({
      mutationFn: (state: TerraformState) =>
        api.call(terraformRoutes.restoreState, { params: { ...params, state_id: state.id } }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: async (state: TerraformState) => {
        await api.call(terraformRoutes.removeState, { params: { ...params, state_id: state.id } })
        return state
      },
      onSuccess,
    }),
  }
}
