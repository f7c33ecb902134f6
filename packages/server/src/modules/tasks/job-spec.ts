import { join } from 'node:path'
import type { JobInventory, JobRepository, JobSpec, JobVault, KeyMaterial } from '@flagman/contract'
import { DEFAULT_BACKEND_FILENAME } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { decryptKeySecret as decryptSecret } from '../../lib/key-secret.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { findApp } from '../apps/apps.service.js'
import { backendUrl, issueTaskAlias } from '../terraform/alias-store.js'
import { deliveryEnv } from './delivery-env.js'
import type { TaskRow } from './tasks.repository.js'

/** A problem that ends the task in error with this message in its log. */
export class PreparationError extends Error {}

function objectFrom(text: string | null | undefined, what: string): Record<string, unknown> {
  if (!text || text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new PreparationError(`${what} is not valid JSON`)
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new PreparationError(`${what} is not a JSON object`)
  }
  return value as Record<string, unknown>
}

function stringArray(text: string | null | undefined, what: string): string[] {
  if (!text || text.trim() === '') return []
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    throw new PreparationError(`${what} is not valid JSON`)
  }
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new PreparationError(`${what} must be a JSON array of strings`)
  }
  return value as string[]
}

const bool = (v: unknown): boolean => v === true
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []

interface Context {
  db: Db
  box: SecretBox
  projectId: number
  secrets: Set<string>
}

async function keyMaterial(ctx: Context, keyId: number | null, what: string): Promise<KeyMaterial> {
  if (keyId === null) return { type: 'none' }
  const row = await ctx.db.kysely
    .selectFrom('access_key')
    .select(['id', 'name', 'type', 'secret'])
    .where('id', '=', keyId)
    .where('project_id', '=', ctx.projectId)
    .executeTakeFirst()
  if (!row) throw new PreparationError(`The ${what} key ${keyId} does not exist`)
  if (row.type === 'none') return { type: 'none' }
  let secret
  try {
    secret = decryptSecret(ctx.box, row.secret)
  } catch {
    throw new PreparationError(`The ${what} key "${row.name}" can not be decrypted`)
  }
  if (!secret) throw new PreparationError(`The ${what} key "${row.name}" has no secret`)
  if (secret.type === 'ssh') {
    // Whole: the executor masks each of its lines and its encoded forms.
    if (secret.private_key.trim()) ctx.secrets.add(secret.private_key)
    if (secret.passphrase) ctx.secrets.add(secret.passphrase)
    return {
      type: 'ssh',
      login: secret.login,
      privateKey: secret.private_key,
      passphrase: secret.passphrase,
    }
  }
  if (secret.password) ctx.secrets.add(secret.password)
  return { type: 'login_password', login: secret.login, password: secret.password }
}

async function repository(ctx: Context, id: number | null): Promise<JobRepository> {
  if (id === null) throw new PreparationError('The template has no repository')
  const row = await ctx.db.kysely
    .selectFrom('repository')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', ctx.projectId)
    .executeTakeFirst()
  if (!row) throw new PreparationError(`Repository ${id} does not exist`)
  // A password written into the URL itself is masked like a key's.
  const password = /^[a-z][a-z0-9+.-]*:\/\/[^/@:]*:([^/@]+)@/i.exec(row.git_url)?.[1]
  if (password) {
    ctx.secrets.add(password)
    try {
      ctx.secrets.add(decodeURIComponent(password))
    } catch {
      // Not percent-encoded.
    }
  }
  return {
    id: row.id,
    url: row.git_url,
    branch: row.git_branch,
    key: await keyMaterial(ctx, row.ssh_key_id, 'repository'),
  }
}

/**
 * A repository of the project with its decrypted key, as a task clones it; the schedule
 * clock reads the head of the same repository this way.
 */
export function loadJobRepository(
  db: Db,
  box: SecretBox,
  projectId: number,
  id: number,
): Promise<JobRepository> {
  return repository({ db, box, projectId, secrets: new Set() }, id)
}

async function inventory(ctx: Context, id: number | null): Promise<JobInventory | null> {
  if (id === null) return null
  const row = await ctx.db.kysely
    .selectFrom('inventory')
    .selectAll()
    .where('id', '=', id)
    .where('project_id', '=', ctx.projectId)
    .executeTakeFirst()
  if (!row) throw new PreparationError(`Inventory ${id} does not exist`)
  return {
    id: row.id,
    type: row.type as JobInventory['type'],
    content: row.inventory,
    repository: row.repository_id !== null ? await repository(ctx, row.repository_id) : null,
    sshKey: await keyMaterial(ctx, row.ssh_key_id, 'inventory SSH'),
    becomeKey: await keyMaterial(ctx, row.become_key_id, 'inventory become'),
  }
}

/** The version a deploy task receives: its build task's, following build chains. */
export async function incomingVersion(db: Db, buildTaskId: number | null): Promise<string | null> {
  let id = buildTaskId
  for (let depth = 0; id !== null && depth < 20; depth += 1) {
    const row = await db.kysely
      .selectFrom('task')
      .innerJoin('template', 'template.id', 'task.template_id')
      .select(['task.version', 'task.build_task_id', 'template.type'])
      .where('task.id', '=', id)
      .executeTakeFirst()
    if (!row) return null
    if (row.type === 'build') return row.version
    id = row.build_task_id
  }
  return null
}

export interface SpecInput {
  db: Db
  box: SecretBox
  dataDir: string
  task: TaskRow
  /** Secret survey values given at creation; kept in memory only. */
  secret: Record<string, unknown>
  username: string
  webHost: string
  /** Address the server is reached at, for the Terraform state backend of the task. */
  publicBase: string
}

/**
 * The workspace's state backend for a Terraform/OpenTofu task: an alias and a password of the
 * task's own, valid while it runs (revoked when it finishes). The template's
 * `override_backend` makes the executor write the backend file; `backend_filename` names it.
 */
async function stateBackend(
  ctx: Context,
  input: SpecInput,
  app: string,
  workspace: JobInventory | null,
  templateParams: Record<string, unknown>,
): Promise<JobSpec['terraform']['backend']> {
  if (app !== 'terraform' && app !== 'tofu') return null
  if (workspace === null) return null
  if (workspace.type !== 'terraform-workspace' && workspace.type !== 'tofu-workspace') return null
  const access = await issueTaskAlias(ctx.db, {
    id: input.task.id,
    projectId: input.task.project_id,
    inventoryId: workspace.id,
  })
  ctx.secrets.add(access.password)
  const name = templateParams.backend_filename
  return {
    address: backendUrl(input.publicBase, access.alias),
    username: access.username,
    password: access.password,
    overrideFile:
      templateParams.override_backend === true
        ? typeof name === 'string' && name !== ''
          ? name
          : DEFAULT_BACKEND_FILENAME
        : null,
  }
}

/** Resolves and decrypts everything the executor needs for one task. */
export async function buildJobSpec(input: SpecInput): Promise<JobSpec> {
  const { db, task } = input
  const ctx: Context = { db, box: input.box, projectId: task.project_id, secrets: new Set() }
  const template = await db.kysely
    .selectFrom('template')
    .selectAll()
    .where('id', '=', task.template_id)
    .where('project_id', '=', task.project_id)
    .executeTakeFirst()
  if (!template) throw new PreparationError(`Template ${task.template_id} does not exist`)
  const app = template.app || 'ansible'
  const appConfig = await findApp(db, app)

  let envJson: Record<string, unknown> = {}
  let envVars: Record<string, string> = {}
  const varSecrets: Array<{ name: string; value: string }> = []
  if (template.environment_id !== null) {
    const environment = await db.kysely
      .selectFrom('environment')
      .selectAll()
      .where('id', '=', template.environment_id)
      .where('project_id', '=', task.project_id)
      .executeTakeFirst()
    if (!environment) {
      throw new PreparationError(`Environment ${template.environment_id} does not exist`)
    }
    envJson = objectFrom(environment.json, 'The environment JSON')
    envVars = Object.fromEntries(
      Object.entries(objectFrom(environment.env, 'The environment variables')).map(([k, v]) => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]),
    )
    const secretRows = await db.kysely
      .selectFrom('access_key')
      .select(['name', 'owner', 'secret'])
      .where('environment_id', '=', environment.id)
      .where('owner', 'in', ['var', 'env'])
      .orderBy('id')
      .execute()
    for (const row of secretRows) {
      if (!row.secret) continue
      let value: string
      try {
        value = input.box.decrypt(row.secret)
      } catch {
        throw new PreparationError(`The environment secret "${row.name}" can not be decrypted`)
      }
      if (value) ctx.secrets.add(value)
      if (row.owner === 'env') envVars[row.name] = value
      else varSecrets.push({ name: row.name, value })
    }
  }

  const taskVars = objectFrom(task.environment, 'The task variables')
  for (const value of Object.values(input.secret)) {
    if (typeof value === 'string' && value !== '') ctx.secrets.add(value)
    else if (value !== null && value !== undefined && typeof value !== 'object') {
      ctx.secrets.add(String(value))
    }
  }

  const vaultRows = await db.kysely
    .selectFrom('template_vault')
    .selectAll()
    .where('template_id', '=', template.id)
    .orderBy('id')
    .execute()
  const vaults: JobVault[] = []
  for (const v of vaultRows) {
    const key = await keyMaterial(ctx, v.vault_key_id, 'vault')
    vaults.push({
      name: v.name || null,
      type: v.type === 'script' ? 'script' : 'password',
      password: key.type === 'login_password' ? key.password : '',
      script: v.script ?? '',
    })
  }

  const incoming = template.type === 'deploy' ? await incomingVersion(db, task.build_task_id) : null
  const target = template.type === 'build' ? task.version : null
  const meta: Record<string, string> = {
    SEMAPHORE_TASK_ID: String(task.id),
    SEMAPHORE_PROJECT_ID: String(task.project_id),
    SEMAPHORE_TEMPLATE_ID: String(template.id),
    SEMAPHORE_TASK_TYPE: template.type,
    SEMAPHORE_TASK_INCOMING_VERSION: incoming ?? '',
    SEMAPHORE_TASK_TARGET_VERSION: target ?? '',
    SEMAPHORE_TASK_USERNAME: input.username,
  }
  const inventoryId = task.inventory_id ?? template.inventory_id
  const names = async (table: 'inventory' | 'repository', id: number | null): Promise<string> =>
    id === null
      ? ''
      : ((
          await db.kysely
            .selectFrom(table)
            .select('name')
            .where('id', '=', id)
            .where('project_id', '=', task.project_id)
            .executeTakeFirst()
        )?.name ?? '')
  // The commit of this run is added by the executor once the repository is checked out.
  const taskDetails: Record<string, unknown> = {
    id: task.id,
    url: input.webHost ? `${input.webHost}/project/${task.project_id}/history?t=${task.id}` : null,
    username: input.username,
    ...(task.message ? { message: task.message } : {}),
    type: template.type,
    ...(incoming !== null ? { incoming_version: incoming } : {}),
    ...(target !== null ? { target_version: target } : {}),
    inventory_id: inventoryId,
    inventory_name: await names('inventory', inventoryId),
    repository_id: template.repository_id,
    repository_name: await names('repository', template.repository_id),
  }
  const taskParams = objectFrom(task.params, 'The task parameters')
  // The template's task parameters are the defaults of every task, schedules' included.
  const defaults = objectFrom(template.task_params, 'The template task parameters')
  const param = (key: string): unknown =>
    taskParams[key] !== undefined && taskParams[key] !== null ? taskParams[key] : defaults[key]
  const list = (key: string): string[] => {
    const own = strings(taskParams[key])
    return own.length > 0 ? own : strings(defaults[key])
  }
  const limit = strings(taskParams.limit)
  if (limit.length === 0 && task.hosts_limit) {
    limit.push(
      ...task.hosts_limit
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
  }
  if (limit.length === 0) limit.push(...strings(defaults.limit))
  const debugLevel = param('debug_level')
  const jobInventory = await inventory(ctx, inventoryId)
  const backend = await stateBackend(ctx, input, app, jobInventory, defaults)

  return {
    taskId: task.id,
    projectId: task.project_id,
    templateId: template.id,
    app,
    appPath: appConfig?.path ?? '',
    appArgs: appConfig?.args ?? null,
    workRoot: join(input.dataDir, 'work', `project_${task.project_id}`),
    repository: await repository(ctx, template.repository_id),
    gitBranch: task.git_branch || template.git_branch || '',
    commitHash: task.commit_hash ?? '',
    playbook: task.playbook || template.playbook,
    inventory: jobInventory,
    extraVars: { ...envJson, ...taskVars, semaphore_vars: { task_details: taskDetails } },
    secretVars: input.secret,
    varSecrets,
    // What a webhook delivery carried adds variables; it never replaces the environment's own
    // variables and secrets or the task metadata.
    env: {
      ...(await deliveryEnv(
        db.kysely,
        task,
        varSecrets.map((s) => s.name),
      )),
      ...envVars,
      ...meta,
    },
    templateArgs: stringArray(template.arguments, 'The template arguments'),
    taskArgs: stringArray(task.arguments, 'The task arguments'),
    ansible: {
      debug: bool(param('debug')) || Boolean(task.debug),
      debugLevel: typeof debugLevel === 'number' ? debugLevel : 4,
      dryRun: bool(param('dry_run')) || Boolean(task.dry_run),
      diff: bool(param('diff')) || Boolean(task.diff),
      limit,
      tags: list('tags'),
      skipTags: list('skip_tags'),
    },
    terraform: {
      plan: bool(param('plan')),
      destroy: bool(param('destroy')),
      autoApprove: bool(param('auto_approve')),
      upgrade: bool(param('upgrade')),
      reconfigure: bool(param('reconfigure')),
      backend,
    },
    vaults,
    secretsToMask: [...ctx.secrets].filter((s) => s.length > 0),
  }
}
