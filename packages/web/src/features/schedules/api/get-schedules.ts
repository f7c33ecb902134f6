import {
  type Schedule,
  type ScheduleWithTemplate,
  scheduleRoutes,
  templateRoutes,
} from '@flagman/contract'
import { type QueryClient, queryOptions, useQueries, useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from '../../templates/api/templates.query-keys'
import { scheduleKeys } from './schedules.query-keys'

/** How often the list is read again, so last runs and misses show up. */
export const SCHEDULES_REFRESH_MS = 10_000

export const schedulesQueryOptions = (projectId: number) =>
  queryOptions({
    queryKey: scheduleKeys.list(projectId),
    queryFn: async ({ signal }): Promise<ScheduleWithTemplate[]> =>
      (await api.call(scheduleRoutes.list, { params: { project_id: projectId }, signal })) ?? [],
    refetchInterval: SCHEDULES_REFRESH_MS,
  })

export function useSchedules(projectId: number) {
  return useQuery(schedulesQueryOptions(projectId))
}

/**
 * The commit checks of these templates. The project's list leaves them out; they belong to
 * their template and are read (and cached) the way the template form reads them. They are
 * read again when a task of the project changes (see `invalidateScheduleRuns`).
 */
export function useCommitCheckSchedules(projectId: number, templateIds: readonly number[]) {
  return useQueries({
    queries: templateIds.map((templateId) => ({
      queryKey: templateKeys.commitChecks(projectId, templateId),
      queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Schedule[]> =>
        (await api.call(templateRoutes.schedules, {
          params: { project_id: projectId, template_id: templateId },
          signal,
        })) ?? [],
    })),
    combine: (results) =>
      results.flatMap((result) =>
        (result.data ?? []).filter((schedule) => schedule.repository_id !== null),
      ),
  })
}

/** Reads the schedules again, e.g. after a task started: their last runs may have changed. */
export function invalidateScheduleRuns(queryClient: QueryClient, projectId: number) {
  void queryClient.invalidateQueries({ queryKey: scheduleKeys.list(projectId) })
  void queryClient.invalidateQueries({
    queryKey: [...templateKeys.all(projectId), 'commit-checks'],
  })
}
