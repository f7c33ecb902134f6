import {
  type CreateScheduleBody,
  type Schedule,
  type ScheduleWithTemplate,
  scheduleRoutes,
  type UpdateScheduleBody,
} from '@flagman/contract'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from '../../templates/api/templates.query-keys'
import { scheduleKeys } from './schedules.query-keys'

export function useCreateSchedule(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: CreateScheduleBody) =>
      api.call(scheduleRoutes.create, { params: { project_id: projectId }, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all(projectId) }),
  })
}

export function useUpdateSchedule(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdateScheduleBody & { id: number }) =>
      api.call(scheduleRoutes.update, {
        params: { project_id: projectId, schedule_id: body.id },
        body,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all(projectId) }),
  })
}

export function useDeleteSchedule(projectId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (schedule: Schedule) => {
      await api.call(scheduleRoutes.remove, {
        params: { project_id: projectId, schedule_id: schedule.id },
      })
      return schedule
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: scheduleKeys.all(projectId) }),
  })
}

/**
 * Turns a schedule on or off at once: the list shows the new state before the server answers
 * and goes back to the old one if it refuses.
 */
export function useSetScheduleActive(projectId: number) {
  const queryClient = useQueryClient()
  const listKey = scheduleKeys.list(projectId)
  const setInList = (id: number, active: boolean) =>
    queryClient.setQueryData<ScheduleWithTemplate[]>(listKey, (list) =>
      list?.map((item) => (item.id === id ? { ...item, active } : item)),
    )
  return useMutation({
    mutationFn: ({ schedule, active }: { schedule: Schedule; active: boolean }) =>
      api.call(scheduleRoutes.setActive, {
        params: { project_id: projectId, schedule_id: schedule.id },
        body: { active },
      }),
    onMutate: async ({ schedule, active }) => {
      await queryClient.cancelQueries({ queryKey: listKey })
      setInList(schedule.id, active)
    },
    onError: (_error, { schedule }) => setInList(schedule.id, schedule.active),
    onSettled: (_data, _error, { schedule }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: listKey }),
        queryClient.invalidateQueries({
          queryKey: templateKeys.commitChecks(projectId, schedule.template_id),
        }),
      ]),
  })
}
