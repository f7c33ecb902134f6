import { type Schedule, scheduleRoutes, templateRoutes } from '@flagman/contract'
import { useQuery } from '@tanstack/react-query'
import { api } from '../../../lib/api-client'
import { templateKeys } from './templates.query-keys'

/** The commit-check schedules of a template (schedules with a repository). */
export function useCommitChecks(projectId: number, templateId: number | null) {
  return useQuery({
    queryKey: templateKeys.commitChecks(projectId, templateId ?? 0),
    queryFn: async ({ signal }): Promise<Schedule[]> =>
      (await api.call(templateRoutes.schedules, {
        params: { project_id: projectId, template_id: templateId ?? 0 },
        signal,
      })) ?? [],
    enabled: templateId !== null,
  })
}

/** The commit check a template should have after saving; null: none. */
export interface CommitCheckPlan {
  cron: string
  repositoryId: number
  /** Schedules are named after their template. */
  name: string
}

/** Asks the server whether it accepts the cron expression; throws its refusal. */
export async function validateCron(projectId: number, cron: string): Promise<void> {
  await api.call(scheduleRoutes.validate, {
    params: { project_id: projectId },
    body: { cron_format: cron },
  })
}

/**
 * Makes the template's commit checks match the plan: the first existing one is updated (or
 * one is created), the others are removed; without a plan all of them are removed.
 */
export async function saveCommitCheck(
  projectId: number,
  templateId: number,
  plan: CommitCheckPlan | null,
  existing: readonly Schedule[],
): Promise<void> {
  const params = { project_id: projectId }
  const [kept, ...extra] = plan ? existing : []
  const removed = plan ? extra : existing
  for (const schedule of removed) {
    await api.call(scheduleRoutes.remove, { params: { ...params, schedule_id: schedule.id } })
  }
  if (!plan) return
  const fields = {
    name: plan.name,
    template_id: templateId,
    cron_format: plan.cron,
    repository_id: plan.repositoryId,
    active: true,
    project_id: projectId,
  }
  if (!kept) {
    await api.call(scheduleRoutes.create, { params, body: fields })
    return
  }
  const unchanged =
    kept.name === fields.name &&
    kept.cron_format === fields.cron_format &&
    kept.repository_id === fields.repository_id &&
    kept.active
  if (unchanged) return
  await api.call(scheduleRoutes.update, {
    params: { ...params, schedule_id: kept.id },
    body: { ...fields, id: kept.id },
  })
}
