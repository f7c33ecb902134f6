import {
  addTeamMember,
  leaveProject,
  type ProjectRole,
  removeTeamMember,
  updateTeamMember,
} from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { teamKeys } from './team.query-keys'

export function useAddTeamMember(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { user_id: number; role: ProjectRole }) =>
      api.call(addTeamMember, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.list(projectId) }),
  })
}

export function useUpdateTeamMember(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: ProjectRole }) =>
      api.call(updateTeamMember, {
        params: { project_id: projectId, user_id: userId },
        body: { role },
      }),
    // The viewer's own role may have changed, which other parts of the console show.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['project', projectId] }),
  })
}

export function useRemoveTeamMember(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (userId: number) =>
      api.call(removeTeamMember, { params: { project_id: projectId, user_id: userId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamKeys.list(projectId) }),
  })
}

export function useLeaveProject(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.call(leaveProject, { params: { project_id: projectId } }),
    // Not awaited: the caller moves to another project first, so the page of the project left
    // never renders without its project.
    onSuccess: () => {
      void queryClient.invalidateQueries()
    },
  })
}
