import { createProject, type CreateProjectBody } from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { projectKeys } from './projects.query-keys'

export function useCreateProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateProjectBody) => api.call(createProject, { body }),
    onSuccess: async (project) => {
      queryClient.setQueryData(projectKeys.detail(project.id), project)
      await queryClient.invalidateQueries({ queryKey: projectKeys.list() })
    },
  })
}
