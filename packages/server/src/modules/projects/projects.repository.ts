import type { Project } from '@flagman/contract'
import type { Database, Db, ProjectTable } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'

export type ProjectRow = Selectable<ProjectTable>

/** Lists are capped at this many projects, sorted by name. */
export const PROJECT_LIST_LIMIT = 200

export function toProject(row: ProjectRow): Project {
  return {
    id: row.id,
    name: row.name,
    created: row.created,
    alert: Boolean(row.alert),
    alert_chat: row.alert_chat,
    max_parallel_tasks: row.max_parallel_tasks,
    type: row.type,
    task_retention_days: row.task_retention_days ?? null,
    max_tasks_per_template: row.max_tasks_per_template || null,
  }
}

export function findProject(db: Kysely<Database>, id: number): Promise<ProjectRow | undefined> {
  return db.selectFrom('project').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Projects the user belongs to, or every project for admins. */
export function findProjectsFor(db: Db, userId: number, admin: boolean): Promise<ProjectRow[]> {
  let query = db.kysely.selectFrom('project').selectAll('project')
  if (!admin) {
    query = query
      .innerJoin('project_user', 'project_user.project_id', 'project.id')
      .where('project_user.user_id', '=', userId)
  }
  return query.orderBy('project.name').orderBy('project.id').limit(PROJECT_LIST_LIMIT).execute()
}

/**
 * Deletes a project and everything in it, children first, so that no foreign key
 * (some are RESTRICT on purpose) is ever in the way, on every dialect.
 */
export async function deleteProjectTree(trx: Kysely<Database>, projectId: number): Promise<void> {
  const integrationIds = trx
    .selectFrom('integration')
    .select('id')
    .where('project_id', '=', projectId)
  const taskIds = trx.selectFrom('task').select('id').where('project_id', '=', projectId)
  await trx
    .deleteFrom('integration_matcher')
    .where('integration_id', 'in', integrationIds)
    .execute()
  await trx
    .deleteFrom('integration_extract_value')
    .where('integration_id', 'in', integrationIds)
    .execute()
  await trx.deleteFrom('integration_alias').where('project_id', '=', projectId).execute()
  await trx.deleteFrom('integration').where('project_id', '=', projectId).execute()
  await trx.deleteFrom('task_output').where('task_id', 'in', taskIds).execute()
  for (const table of [
    'task',
    'schedule',
    'template_vault',
    'template',
    'inventory',
    'repository',
  ] as const) {
    await trx.deleteFrom(table).where('project_id', '=', projectId).execute()
  }
  for (const table of [
    'access_key',
    'environment',
    'view',
    'runner',
    'project_user',
    'event',
  ] as const) {
    await trx.deleteFrom(table).where('project_id', '=', projectId).execute()
  }
  await trx.deleteFrom('project').where('id', '=', projectId).execute()
}
