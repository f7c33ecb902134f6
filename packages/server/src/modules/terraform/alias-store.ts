import type { TerraformAlias } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import { randomBytes, timingSafeEqual } from 'node:crypto'
import { decryptKeySecret } from '../../lib/key-secret.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { randomLowerAlnum, sha256 } from '../../lib/secrets.js'

/** Public address of an alias, from the server's public base address. */
export function backendUrl(base: string, alias: string): string {
  return `${base}/api/terraform/${alias}`
}

export interface AliasRow {
  id: number
  project_id: number
  inventory_id: number
  auth_key_id: number | null
  task_id: number | null
  alias: string
  secret_digest: string | null
}

export function toAlias(base: string, row: AliasRow): TerraformAlias {
  return { id: row.id, url: backendUrl(base, row.alias), auth_key_id: row.auth_key_id }
}

const columns = [
  'id',
  'project_id',
  'inventory_id',
  'auth_key_id',
  'task_id',
  'alias',
  'secret_digest',
] as const

/** A workspace's user aliases (task aliases are internal), oldest first. */
export async function listAliases(db: Db, inventoryId: number): Promise<AliasRow[]> {
  return db.kysely
    .selectFrom('terraform_alias')
    .select(columns)
    .where('inventory_id', '=', inventoryId)
    .where('task_id', 'is', null)
    .orderBy('id')
    .execute()
}

export async function findAlias(db: Db, inventoryId: number, id: number): Promise<AliasRow | null> {
  return (
    (await db.kysely
      .selectFrom('terraform_alias')
      .select(columns)
      .where('inventory_id', '=', inventoryId)
      .where('task_id', 'is', null)
      .where('id', '=', id)
      .executeTakeFirst()) ?? null
  )
}

export async function findAliasByName(db: Db, alias: string): Promise<AliasRow | null> {
  return (
    (await db.kysely
      .selectFrom('terraform_alias')
      .select(columns)
      .where('alias', '=', alias)
      .executeTakeFirst()) ?? null
  )
}

export async function insertAlias(
  db: Db,
  values: { projectId: number; inventoryId: number; authKeyId: number },
): Promise<AliasRow> {
  const alias = randomLowerAlnum(32)
  const id = await insertReturningId(db, 'terraform_alias', {
    project_id: values.projectId,
    inventory_id: values.inventoryId,
    auth_key_id: values.authKeyId,
    task_id: null,
    alias,
    secret_digest: null,
    created: nowIso(),
  })
  return {
    id,
    project_id: values.projectId,
    inventory_id: values.inventoryId,
    auth_key_id: values.authKeyId,
    task_id: null,
    alias,
    secret_digest: null,
  }
}

/** Credentials a task uses to reach its workspace's backend while it runs. */
export interface TaskBackendAccess {
  alias: string
  username: string
  password: string
}

/**
 * Gives a task its own alias of the workspace it runs in, with a random password kept only
 * as a digest. Any earlier alias of the task (a restarted preparation) is replaced.
 */
export async function issueTaskAlias(
  db: Db,
  task: { id: number; projectId: number; inventoryId: number },
): Promise<TaskBackendAccess> {
  await revokeTaskAliases(db, task.id)
  const alias = randomLowerAlnum(32)
  const password = randomLowerAlnum(40)
  await insertReturningId(db, 'terraform_alias', {
    project_id: task.projectId,
    inventory_id: task.inventoryId,
    auth_key_id: null,
    task_id: task.id,
    alias,
    secret_digest: sha256(password),
    created: nowIso(),
  })
  return { alias, username: `task-${String(task.id)}`, password }
}

/** Ends a task's access to the backend (its alias stops answering). */
export async function revokeTaskAliases(db: Db, taskId: number): Promise<void> {
  await db.kysely.deleteFrom('terraform_alias').where('task_id', '=', taskId).execute()
}

/** Equal-time comparison of two texts of any lengths (their digests are compared). */
export function sameText(a: string, b: string): boolean {
  return timingSafeEqual(Buffer.from(sha256(a), 'hex'), Buffer.from(sha256(b), 'hex'))
}

/** Login and password of HTTP basic authentication, or null when the header has none. */
export function basicCredentials(
  header: string | undefined,
): { login: string; password: string } | null {
  if (header === undefined) return null
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header)
  if (!match?.[1]) return null
  const text = Buffer.from(match[1], 'base64').toString('utf8')
  const colon = text.indexOf(':')
  if (colon < 0) return null
  return { login: text.slice(0, colon), password: text.slice(colon + 1) }
}

// A fixed digest compared against when the alias or its key is missing, so that an unknown
// alias costs the same work as a wrong password.
const DECOY = sha256(randomBytes(32))

/**
 * Whether the credentials open the alias: a task alias's login and password, or the login and
 * password of a user alias's login_password key. Always does one key lookup and two
 * equal-time comparisons, whatever is missing.
 */
export async function credentialsOpen(
  db: Db,
  box: SecretBox,
  alias: AliasRow | null,
  given: { login: string; password: string } | null,
): Promise<boolean> {
  let login = DECOY
  let secret = DECOY
  let usable = false
  if (alias !== null && alias.task_id !== null && alias.secret_digest !== null) {
    login = `task-${String(alias.task_id)}`
    usable = true
  }
  const key =
    alias !== null && alias.task_id === null && alias.auth_key_id !== null
      ? await db.kysely
          .selectFrom('access_key')
          .select(['type', 'secret'])
          .where('id', '=', alias.auth_key_id)
          .where('project_id', '=', alias.project_id)
          .executeTakeFirst()
      : await db.kysely
          .selectFrom('access_key')
          .select(['type', 'secret'])
          .where('id', '=', -1)
          .executeTakeFirst()
  if (key?.type === 'login_password') {
    try {
      const material = decryptKeySecret(box, key.secret)
      if (material?.type === 'login_password' && material.password !== '') {
        login = material.login
        secret = material.password
        usable = true
      }
    } catch {
      usable = false
    }
  }
  const givenLogin = given?.login ?? ''
  const givenPassword = given?.password ?? ''
  const loginMatches = sameText(givenLogin, login)
  // A task alias keeps only its password's digest.
  const passwordMatches =
    alias?.secret_digest != null
      ? timingSafeEqual(
          Buffer.from(sha256(givenPassword), 'hex'),
          Buffer.from(alias.secret_digest, 'hex'),
        )
      : sameText(givenPassword, secret)
  return usable && given !== null && loginMatches && passwordMatches
}
