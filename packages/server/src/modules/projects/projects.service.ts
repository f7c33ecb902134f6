import type { CreateProjectBody, Project, UpdateProjectBody } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { z } from 'zod'
import type { Config } from '../../config.js'
import { announceAccessChange } from '../../platform/access-changes.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { addDemoResources } from './demo-project.js'
import {
  deleteProjectTree,
  findProject,
  findProjectsFor,
  toProject,
} from './projects.repository.js'

type CreateInput = z.output<typeof CreateProjectBody>
type UpdateInput = z.output<typeof UpdateProjectBody>

export async function listProjects(db: Db, actor: Actor): Promise<Project[]> {
  return (await findProjectsFor(db, actor.id, actor.admin)).map(toProject)
}

export async function getProject(db: Db, id: number): Promise<Project> {
  const row = await findProject(db.kysely, id)
  if (!row) throw new NotFoundError('Project')
  return toProject(row)
}

/**
 * Creates a project owned by its creator, with the key "None" and the environment
 * "Empty" that templates of a new project can start from.
 */
export async function createProject(
  db: Db,
  config: Config,
  actor: Actor,
  input: CreateInput,
): Promise<Project> {
  if (!actor.admin && !config.nonAdminCanCreateProject) {
    throw new UnauthorizedError('Only administrators can create projects')
  }
  return db.kysely.transaction().execute(async (trx) => {
    const created = nowIso()
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'project', {
      name: input.name,
      created,
      alert: flag(input.alert),
      alert_chat: input.alert_chat || null,
      max_parallel_tasks: input.max_parallel_tasks ?? 0,
      type: input.type ?? '',
      task_retention_days: input.task_retention_days ?? null,
      max_tasks_per_template: input.max_tasks_per_template ?? null,
    })
    await trx
      .insertInto('project_user')
      .values({ project_id: id, user_id: actor.id, role: 'owner' })
      .execute()
    const ctx = { kysely: trx, dialect: db.dialect }
    const noneKeyId = await insertReturningId(ctx, 'access_key', {
      project_id: id,
      name: 'None',
      type: 'none',
      created,
    })
    const emptyEnvironmentId = await insertReturningId(ctx, 'environment', {
      project_id: id,
      name: 'Empty',
      json: '{}',
      created,
    })
    if (input.demo) {
      await addDemoResources({
        trx,
        dialect: db.dialect,
        projectId: id,
        created,
        noneKeyId,
        emptyEnvironmentId,
      })
    }
    await insertEvent(trx, {
      projectId: id,
      userId: actor.id,
      objectType: 'project',
      objectId: id,
      description: 'Project created',
    })
    return toProject((await findProject(trx, id))!)
  })
}

export async function updateProject(
  db: Db,
  actor: Actor,
  id: number,
  input: UpdateInput,
): Promise<void> {
  if (input.id !== undefined && input.id !== id) {
    throw new BadRequestError('Project ID in body and URL must be the same')
  }
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findProject(trx, id)
    if (!current) throw new NotFoundError('Project')
    await trx
      .updateTable('project')
      .set({
        name: input.name,
        alert: flag(input.alert ?? Boolean(current.alert)),
        alert_chat: input.alert_chat === undefined ? current.alert_chat : input.alert_chat || null,
        // Left out keeps the current value, like alert and alert_chat; null means 0.
        max_parallel_tasks:
          input.max_parallel_tasks === undefined
            ? current.max_parallel_tasks
            : (input.max_parallel_tasks ?? 0),
        ...(input.task_retention_days === undefined
          ? {}
          : { task_retention_days: input.task_retention_days }),
        ...(input.max_tasks_per_template === undefined
          ? {}
          : { max_tasks_per_template: input.max_tasks_per_template }),
      })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId: id,
      userId: actor.id,
      objectType: 'project',
      objectId: id,
      description: 'Project updated',
    })
  })
}

export async function deleteProject(db: Db, actor: Actor, id: number): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findProject(trx, id)
    if (!current) throw new NotFoundError('Project')
    await deleteProjectTree(trx, id)
    // Recorded outside the project, which no longer exists.
    await insertEvent(trx, {
      projectId: null,
      userId: actor.id,
      objectType: 'project',
      objectId: id,
      description: `Project ${current.name} deleted`,
    })
  })
  // Live sockets stop getting the project's messages at once.
  announceAccessChange(db, { kind: 'project-deleted', projectId: id })
}
