import { keyRoutes, type Refs } from '@flagman/contract'
import { api } from '../../../lib/api-client'

/** Who uses the key; asked right before deleting it, so never cached. */
export function fetchKeyRefs(projectId: number, keyId: number): Promise<Refs> {
  return api.call(keyRoutes.refs, { params: { project_id: projectId, key_id: keyId } })
}
