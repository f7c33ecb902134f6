import { type SchedulePreview, scheduleRoutes, type ScheduleRun } from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { scheduleKeys } from './schedules.query-keys'

/** Next times are read again this often, as the earliest one passes. */
const PREVIEW_REFRESH_MS = 60_000

/** The next times the server would run an expression in a time zone (empty: its default). */
export function useSchedulePreview(
  projectId: number,
  cron: string,
  timezone: string,
  enabled = true,
) {
  return useQuery({
    queryKey: scheduleKeys.preview(projectId, cron, timezone),
    queryFn: ({ signal }): Promise<SchedulePreview> =>
      api.call(scheduleRoutes.preview, {
        params: { project_id: projectId },
        body: { cron_format: cron, timezone },
        signal,
      }),
    enabled: enabled && cron.trim() !== '',
    refetchInterval: PREVIEW_REFRESH_MS,
  })
}

/** Asks the server whether it accepts an expression; throws its refusal. */
export async function validateCron(projectId: number, cron: string): Promise<void> {
  await api.call(scheduleRoutes.validate, {
    params: { project_id: projectId },
    body: { cron_format: cron },
  })
}

/** The server's verdict on an expression: resolves for a valid one, fails with its message. */
export function useCronValidation(projectId: number, cron: string, enabled: boolean) {
  return useQuery({
    queryKey: scheduleKeys.validate(projectId, cron),
    queryFn: async () => {
      await validateCron(projectId, cron)
      return true
    },
    enabled: enabled && cron.trim() !== '',
    retry: false,
    staleTime: Infinity,
  })
}

/** The latest due times of a schedule, newest first. */
export function useScheduleRuns(projectId: number, scheduleId: number | null) {
  return useQuery({
    queryKey: scheduleKeys.runs(projectId, scheduleId ?? 0),
    queryFn: async ({ signal }): Promise<ScheduleRun[]> =>
      (await api.call(scheduleRoutes.runs, {
        params: { project_id: projectId, schedule_id: scheduleId ?? 0 },
        signal,
      })) ?? [],
    enabled: scheduleId !== null,
  })
}
