import {
  keyRoutes,
  restoreProject,
  type ProjectBackupInput,
  type RestoreReportItem,
} from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export interface RestoreResult {
  projectId: number
  projectName: string
  /** Keys restored without their secret; they must be filled in before tasks run. */
  emptyKeys: number
  /** What of the file the server could not map, with where it is and why. */
  unmapped: RestoreReportItem[]
}

/** Restores a backup as a new project, then counts the keys that came without secrets. */
export function useRestoreProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: ProjectBackupInput): Promise<RestoreResult> => {
      const { restore_report: report, ...project } = await api.call(restoreProject, { body })
      queryClient.setQueryData(projectKeys.detail(project.id), project)
      const keys = await api.call(keyRoutes.list, { params: { project_id: project.id } })
      return {
        projectId: project.id,
        projectName: project.name,
        emptyKeys: keys.filter((key) => key.empty && key.type !== 'none').length,
        // Servers of the compatible API send no report.
        unmapped: report ?? [],
      }
    },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.list() })
    },
  })
}
