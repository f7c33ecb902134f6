import { deleteProject, type Project } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export function useDeleteProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (project: Project) => {
      await api.call(deleteProject, { params: { project_id: project.id } })
      return project
    },
    onSuccess: (project) => {
      // Not awaited: the caller moves to another project first, so the page of the deleted one
      // never renders without its project.
      void queryClient.invalidateQueries({ queryKey: projectKeys.list() })
      queryClient.removeQueries({ queryKey: projectKeys.detail(project.id) })
    },
  })
}
