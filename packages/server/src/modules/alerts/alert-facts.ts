import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { AlertFacts } from './alert-message.js'

/** What decides which alerts a task's status change gives, besides the facts themselves. */
export interface TaskAlertContext {
  facts: AlertFacts
  /** The project's master switch. */
  projectAlert: boolean
  /** The project's Telegram chat; empty when it uses the server's. */
  alertChat: string
  suppressSuccess: boolean
}

/** The console's address: FLAGMAN_WEB_HOST, else this server on localhost. */
export type WebBase = () => string

export const taskUrl = (base: string, projectId: number, templateId: number, taskId: number) =>
  `${base}/project/${projectId}/templates/${templateId}?t=${taskId}`

/** Reads the task, its template, project and author; null when the task is gone. */
export async function loadTaskAlert(
  db: Db,
  taskId: number,
  status: string,
  base: string,
): Promise<TaskAlertContext | null> {
  const k = db.kysely
  const task = await k.selectFrom('task').selectAll().where('id', '=', taskId).executeTakeFirst()
  if (!task) return null
  const [template, project, user, build] = await Promise.all([
    k
      .selectFrom('template')
      .select(['name', 'suppress_success_alerts'])
      .where('id', '=', task.template_id)
      .executeTakeFirst(),
    k
      .selectFrom('project')
      .select(['name', 'alert', 'alert_chat'])
      .where('id', '=', task.project_id)
      .executeTakeFirst(),
    task.user_id === null
      ? undefined
      : k.selectFrom('user').select('name').where('id', '=', task.user_id).executeTakeFirst(),
    task.build_task_id === null
      ? undefined
      : k
          .selectFrom('task')
          .select('version')
          .where('id', '=', task.build_task_id)
          .executeTakeFirst(),
  ])
  if (!template || !project) return null
  // A deploy has no version of its own: it names the build it deploys.
  const version =
    task.version ??
    (task.build_task_id === null ? '' : `build ${build?.version ?? task.build_task_id}`)
  return {
    facts: {
      status,
      taskId,
      templateId: task.template_id,
      templateName: template.name,
      projectId: task.project_id,
      projectName: project.name,
      author: user?.name || '—',
      version,
      description: task.message ?? '',
      url: taskUrl(base, task.project_id, task.template_id, taskId),
      time: nowIso(),
    },
    projectAlert: project.alert === 1,
    alertChat: project.alert_chat?.trim() ?? '',
    suppressSuccess: template.suppress_success_alerts === 1,
  }
}

/** Addresses of the project's members and of every administrator who want alerts. */
export async function emailRecipients(db: Db, projectId: number): Promise<string[]> {
  const k = db.kysely
  const [members, admins] = await Promise.all([
    k
      .selectFrom('project_user')
      .innerJoin('user', 'user.id', 'project_user.user_id')
      .select(['user.id', 'user.email'])
      .where('project_user.project_id', '=', projectId)
      .where('user.alert', '=', 1)
      .execute(),
    k
      .selectFrom('user')
      .select(['id', 'email'])
      .where('admin', '=', 1)
      .where('alert', '=', 1)
      .execute(),
  ])
  const byId = new Map<number, string>()
  for (const u of [...members, ...admins]) if (u.email.trim() !== '') byId.set(u.id, u.email)
  return [...new Set(byId.values())]
}
