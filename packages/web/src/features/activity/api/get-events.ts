import { type Event, listProjectEvents } from '@flagman/contract'
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { keysetQuery, nextCursor } from '../../../lib/keyset-pages'
import { activityKeys } from './activity.query-keys'

/** Events the activity page asks the server for at a time ("Show more" asks for the next). */
export const ACTIVITY_PAGE_SIZE = 100

/** The project's events, newest first, a page at a time. */
export const eventsQueryOptions = (projectId: number) =>
  infiniteQueryOptions({
    queryKey: activityKeys.list(projectId),
    queryFn: async ({ pageParam, signal }): Promise<Event[]> =>
      (await api.call(listProjectEvents, {
        params: { project_id: projectId },
        query: keysetQuery(ACTIVITY_PAGE_SIZE, pageParam),
        signal,
      })) ?? [],
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => nextCursor(last, ACTIVITY_PAGE_SIZE),
  })

/** The events loaded so far, newest first; events of the same moment keep the server's order. */
export function sortedEvents(pages: readonly (readonly Event[])[]): Event[] {
  return pages.flat().sort((a, b) => Date.parse(b.created) - Date.parse(a.created))
}

export function useEvents(projectId: number) {
  return useInfiniteQuery({
    ...eventsQueryOptions(projectId),
    select: (data) => sortedEvents(data.pages),
  })
}
