import { inventoryRoutes, type Refs } from '@flagman/contract'
import { api } from '../../../lib/api-client'

/** Who uses the inventory; asked right before deleting it, so never cached. */
export function fetchInventoryRefs(projectId: number, inventoryId: number): Promise<Refs> {
  return api.call(inventoryRoutes.refs, {
    params: { project_id: projectId, inventory_id: inventoryId },
  })
}
