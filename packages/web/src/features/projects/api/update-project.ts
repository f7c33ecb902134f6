import { type Project, updateProject, type UpdateProjectBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export function useUpdateProject(project: Project) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: Omit<UpdateProjectBody, 'id'>) =>
      api.call(updateProject, {
        params: { project_id: project.id },
        // The compatible API wants the whole project back, with its id.
        body: { ...changes, id: project.id },
      }),
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: projectKeys.detail(project.id), exact: true }),
        queryClient.invalidateQueries({ queryKey: projectKeys.list() }),
      ])
    },
  })
}
