import { environmentRoutes, type Refs } from '@flagman/contract'
import { api } from '../../../lib/api-client'

/** Who uses the environment; asked right before deleting it, so never cached. */
export function fetchEnvironmentRefs(projectId: number, environmentId: number): Promise<Refs> {
  return api.call(environmentRoutes.refs, {
    params: { project_id: projectId, environment_id: environmentId },
  })
}
