import { repositoryRoutes, type Refs } from '@flagman/contract'
import { api } from '../../../lib/api-client'

/** Who uses the repository; asked right before deleting it, so never cached. */
export function fetchRepositoryRefs(projectId: number, repositoryId: number): Promise<Refs> {
  return api.call(repositoryRoutes.refs, {
    params: { project_id: projectId, repository_id: repositoryId },
  })
}
