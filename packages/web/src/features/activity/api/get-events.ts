import { type Event, listLastProjectEvents } from '@flagman/contract'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { activityKeys } from './activity.query-keys'

/** The project's latest events, newest first. */
export const eventsQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: activityKeys.list(projectId),
    queryFn: async ({ signal }): Promise<Event[]> => {
      const events =
        (await api.call(listLastProjectEvents, { params: { project_id: projectId }, signal })) ?? []
      // Stable: events of the same moment keep the server's order.
      return [...events].sort((a, b) => Date.parse(b.created) - Date.parse(a.created))
    },
  })

export function useEvents(projectId: number) {
  return useQuery(eventsQueryOptions(projectId))
}
