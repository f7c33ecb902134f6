import type { RunnerNewJob } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import { decryptKeySecret } from '../../lib/key-secret.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { NotFoundError } from '../../platform/errors.js'
import { getEnvironment } from '../environments/environments.service.js'
import { getInventory } from '../inventories/inventories.service.js'
import { getRepository } from '../repositories/repositories.service.js'
import { incomingVersion } from '../tasks/job-spec.js'
import type { RunnerWork } from '../tasks/runner-work.js'
import { toTask, type TaskRow } from '../tasks/tasks.repository.js'
import { getTemplate } from '../templates/templates.service.js'

/*
 * The jobs handed to a runner, in the compatible runner's shape: each API object as the API
 * serialises it, plus the secrets the job needs (decrypted here, as the answer is encrypted
 * to the runner's key), plus Flagman's own resolved job (`job`).
 */

export interface PayloadContext {
  db: Db
  box: SecretBox
  work: Pick<RunnerWork, 'jobSpecFor'>
  log: FastifyBaseLogger
}

/** An access key with its secret fields filled in, as the compatible runner reads them. */
export interface RunnerAccessKey {
  id: number
  name: string
  type: string
  project_id: number | null
  login_password: { login: string; password: string }
  ssh: { login: string; passphrase: string; private_key: string }
  string: string
  override_secret: boolean
}

/** Something a job refers to that was deleted since: the job goes without it. */
async function orNull<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load()
  } catch (error) {
    if (error instanceof NotFoundError) return null
    throw error
  }
}

async function username(db: Db, userId: number | null): Promise<string> {
  if (userId === null) return ''
  const row = await db.kysely
    .selectFrom('user')
    .select('username')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.username ?? ''
}

/** The environment's secrets with their values, which the API never shows otherwise. */
async function environmentSecrets(ctx: PayloadContext, environmentId: number) {
  const rows = await ctx.db.kysely
    .selectFrom('access_key')
    .select(['id', 'name', 'owner', 'secret'])
    .where('environment_id', '=', environmentId)
    .where('owner', 'in', ['var', 'env'])
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    type: row.owner,
    name: row.name,
    secret: row.secret ? ctx.box.decrypt(row.secret) : '',
    operation: '',
  }))
}

async function accessKey(
  ctx: PayloadContext,
  projectId: number,
  id: number,
): Promise<RunnerAccessKey | null> {
  const row = await ctx.db.kysely
    .selectFrom('access_key')
    .select(['id', 'name', 'type', 'project_id', 'secret'])
    .where('id', '=', id)
    .where('project_id', '=', projectId)
    .executeTakeFirst()
  if (!row) return null
  const key: RunnerAccessKey = {
    id: row.id,
    name: row.name,
    type: row.type,
    project_id: row.project_id,
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    string: '',
    override_secret: false,
  }
  const secret = decryptKeySecret(ctx.box, row.secret)
  if (secret?.type === 'ssh') {
    key.ssh = {
      login: secret.login,
      passphrase: secret.passphrase,
      private_key: secret.private_key,
    }
  } else if (secret?.type === 'login_password') {
    key.login_password = { login: secret.login, password: secret.password }
  }
  return key
}

const idOf = (value: unknown): number | null => (typeof value === 'number' ? value : null)

/** One job of the poll answer and the ids of the keys it uses. */
async function newJob(
  ctx: PayloadContext,
  row: TaskRow,
): Promise<{ job: RunnerNewJob; keyIds: number[] }> {
  const { db } = ctx
  const projectId = row.project_id
  const template = await getTemplate(db, projectId, row.template_id)
  const inventoryId = row.inventory_id ?? template.inventory_id ?? null
  const inventory =
    inventoryId === null ? null : await orNull(() => getInventory(db, projectId, inventoryId))
  const inventoryRepository =
    inventory?.repository_id != null
      ? await orNull(() => getRepository(db, projectId, inventory.repository_id as number))
      : null
  const repository =
    template.repository_id != null
      ? await orNull(() => getRepository(db, projectId, template.repository_id as number))
      : null
  const environmentId = template.environment_id ?? null
  const environment =
    environmentId === null ? null : await orNull(() => getEnvironment(db, projectId, environmentId))

  const keyIds = [
    idOf(repository?.ssh_key_id),
    idOf(inventoryRepository?.ssh_key_id),
    idOf(inventory?.ssh_key_id),
    idOf(inventory?.become_key_id),
    ...template.vaults.map((v) => idOf(v.vault_key_id)),
  ].filter((id): id is number => id !== null)

  const job: RunnerNewJob = {
    Username: await username(db, row.user_id),
    IncomingVersion: await incomingVersion(db, row.build_task_id),
    Alias: '',
    task: toTask(row),
    template,
    inventory,
    inventory_repository: inventoryRepository,
    repository,
    environment: environment && {
      ...environment,
      secrets: await environmentSecrets(ctx, environment.id),
    },
  }
  try {
    job.job = await ctx.work.jobSpecFor(row)
  } catch (error) {
    // The runner reports the job as failed; the compatible fields still describe it.
    ctx.log.warn(
      { taskId: row.id, reason: error instanceof Error ? error.message : String(error) },
      'could not resolve the job of a runner task',
    )
  }
  return { job, keyIds }
}

/** The `new_jobs` and `access_keys` of a poll answer for these starting tasks. */
export async function buildNewJobs(
  ctx: PayloadContext,
  rows: TaskRow[],
): Promise<{ new_jobs: RunnerNewJob[]; access_keys: Record<string, RunnerAccessKey> }> {
  const newJobs: RunnerNewJob[] = []
  const accessKeys: Record<string, RunnerAccessKey> = {}
  for (const row of rows) {
    const { job, keyIds } = await newJob(ctx, row)
    newJobs.push(job)
    for (const id of keyIds) {
      if (accessKeys[String(id)]) continue
      const key = await accessKey(ctx, row.project_id, id)
      if (key) accessKeys[String(id)] = key
    }
  }
  return { new_jobs: newJobs, access_keys: accessKeys }
}
