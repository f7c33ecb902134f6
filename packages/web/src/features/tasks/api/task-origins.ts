import { integrationRoutes, scheduleRoutes } from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { taskKeys } from './tasks.query-keys'

/** Names of what can start a task without a person, by id. */
export interface TaskOriginNames {
  integrations: ReadonlyMap<number, string>
  schedules: ReadonlyMap<number, string>
}

const EMPTY: ReadonlyMap<number, string> = new Map()

function byId(items: readonly { id: number; name: string }[] | null | undefined) {
  return new Map((items ?? []).map((item) => [item.id, item.name]))
}

/**
 * The names of the project's integrations and schedules, asked only when a shown task was
 * started by one of them. A name stays unknown (the id is shown) when the object was deleted.
 */
export function useTaskOriginNames(
  projectId: number,
  need: { integrations: boolean; schedules: boolean },
): TaskOriginNames {
  const integrations = useQuery({
    queryKey: taskKeys.originIntegrations(projectId),
    queryFn: async ({ signal }) =>
      byId(await api.call(integrationRoutes.list, { params: { project_id: projectId }, signal })),
    enabled: need.integrations,
    staleTime: 60_000,
  })
  const schedules = useQuery({
    queryKey: taskKeys.originSchedules(projectId),
    queryFn: async ({ signal }) =>
      byId(await api.call(scheduleRoutes.list, { params: { project_id: projectId }, signal })),
    enabled: need.schedules,
    staleTime: 60_000,
  })
  return { integrations: integrations.data ?? EMPTY, schedules: schedules.data ?? EMPTY }
}
