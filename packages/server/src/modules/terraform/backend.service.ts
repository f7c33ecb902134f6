import {
  MAX_TERRAFORM_LOCK_INFO_BYTES,
  TerraformLockInfo,
  type TerraformStateSource,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { createHash } from 'node:crypto'
import type { SecretBox } from '../../lib/secret-box.js'
import { basicCredentials, credentialsOpen, findAliasByName, type AliasRow } from './alias-store.js'
import { acquireLock, readLock, releaseLock, type HeldLock } from './lock-store.js'
import {
  deleteAllVersions,
  latestVersion,
  readStateText,
  stateCounters,
  writeVersion,
} from './state-store.js'

/**
 * Terraform's and OpenTofu's `http` backend protocol, independent of HTTP plumbing: each
 * operation answers a status, an optional body and headers, exactly as the client expects.
 */
export interface BackendAnswer {
  status: number
  /** A JSON-able value, raw bytes (the state), or nothing. */
  body?: unknown
  headers?: Record<string, string>
}

const REALM = 'Basic realm="Flagman Terraform state", charset="UTF-8"'
const error = (status: number, message: string): BackendAnswer => ({
  status,
  body: { error: message },
})

/** The alias the request names, once its credentials open it; else the refusal to answer. */
export async function authenticate(
  db: Db,
  box: SecretBox,
  aliasName: string,
  authorization: string | undefined,
): Promise<AliasRow | BackendAnswer> {
  // Aliases are lower-case letters and digits; anything else can not exist, but the same
  // work is done for it as for a wrong password.
  const alias = /^[a-z0-9]{1,64}$/.test(aliasName) ? await findAliasByName(db, aliasName) : null
  const given = basicCredentials(authorization)
  const opens = await credentialsOpen(db, box, alias, given)
  if (alias === null) return error(404, 'Alias not found')
  if (!opens) {
    return {
      status: 401,
      body: { error: 'Wrong or missing credentials for this state' },
      headers: { 'WWW-Authenticate': REALM },
    }
  }
  return alias
}

const where = (alias: AliasRow) => ({
  projectId: alias.project_id,
  inventoryId: alias.inventory_id,
})

function holder(alias: AliasRow): { taskId: number | null; aliasId: number | null } {
  return alias.task_id !== null
    ? { taskId: alias.task_id, aliasId: null }
    : { taskId: null, aliasId: alias.id }
}

/** 423 with the holder's lock information, as Terraform reads it to say who holds the lock. */
const locked = (lock: HeldLock): BackendAnswer => ({ status: 423, body: lock.info })

/**
 * The write rule of the protocol: while the state is locked, a write must carry the holder's
 * lock id (`?ID=`); a write naming a lock that is not held is refused too (someone
 * force-unlocked it meanwhile).
 */
async function checkWriteLock(
  db: Db,
  alias: AliasRow,
  lockId: string | undefined,
): Promise<BackendAnswer | null> {
  const lock = await readLock(db, alias.inventory_id)
  if (lock !== null) return lock.lockId === lockId ? null : locked(lock)
  if (lockId !== undefined && lockId !== '') {
    return error(409, `The state is not locked with ID ${lockId.slice(0, 255)}`)
  }
  return null
}

export async function getState(db: Db, alias: AliasRow): Promise<BackendAnswer> {
  const current = await latestVersion(db, alias.inventory_id)
  if (current === null) return { status: 204 }
  const text = await readStateText(db, current.id)
  return {
    status: 200,
    body: text,
    headers: {
      'Content-Type': 'application/json',
      'Content-MD5': createHash('md5').update(text).digest('base64'),
    },
  }
}

/** The state text as a JSON object, or why it is not one. */
function parseState(body: Buffer): Record<string, unknown> | string {
  if (body.length === 0) return 'the body is empty'
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body)
  } catch {
    return 'it is not UTF-8 text'
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (cause) {
    const position = /position (\d+)/.exec((cause as Error).message)?.[1]
    return position ? `malformed at character ${position}` : 'malformed or truncated'
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'a state is a JSON object'
  }
  return value as Record<string, unknown>
}

export async function putState(
  db: Db,
  alias: AliasRow,
  lockId: string | undefined,
  body: Buffer,
  contentMd5: string | undefined,
): Promise<BackendAnswer> {
  const refused = await checkWriteLock(db, alias, lockId)
  if (refused) return refused
  if (contentMd5 !== undefined && createHash('md5').update(body).digest('base64') !== contentMd5) {
    return error(400, 'The state does not match its Content-MD5 header')
  }
  const state = parseState(body)
  if (typeof state === 'string') return error(400, `The state is not valid JSON: ${state}`)
  const source: TerraformStateSource = alias.task_id !== null ? 'task' : 'alias'
  await writeVersion(db, where(alias), body, stateCounters(state), {
    source,
    ...holder(alias),
    userId: null,
    restoredFrom: null,
  })
  return { status: 200 }
}

export async function purgeState(
  db: Db,
  alias: AliasRow,
  lockId: string | undefined,
): Promise<BackendAnswer> {
  const refused = await checkWriteLock(db, alias, lockId)
  if (refused) return refused
  await deleteAllVersions(db, alias.inventory_id)
  return { status: 200 }
}

/**
 * Lock information from a LOCK or UNLOCK body; null for an empty body, and with `idOptional`
 * (UNLOCK) also for an object without an ID.
 */
function parseLockInfo(body: Buffer, idOptional = false): TerraformLockInfo | null | string {
  if (body.length === 0 || body.toString('utf8').trim() === '') return null
  if (body.length > MAX_TERRAFORM_LOCK_INFO_BYTES) {
    return `Lock information is larger than ${String(MAX_TERRAFORM_LOCK_INFO_BYTES)} bytes`
  }
  let value: unknown
  try {
    value = JSON.parse(body.toString('utf8'))
  } catch {
    return 'Lock information must be a JSON object'
  }
  const isObject = typeof value === 'object' && value !== null && !Array.isArray(value)
  if (idOptional && isObject && (value as Record<string, unknown>).ID === undefined) return null
  const parsed = TerraformLockInfo.safeParse(value)
  if (!parsed.success) return 'Lock information must be a JSON object with a string ID'
  if (parsed.data.ID.length > 255) return 'The lock ID is longer than 255 characters'
  return parsed.data
}

export async function lockState(db: Db, alias: AliasRow, body: Buffer): Promise<BackendAnswer> {
  const info = parseLockInfo(body)
  if (typeof info === 'string') return error(400, info)
  if (info === null || info.ID === '') return error(400, 'Lock information must carry an ID')
  const held = await acquireLock(db, where(alias), info, holder(alias))
  return held === null ? { status: 200, body: info } : locked(held)
}

/**
 * UNLOCK with the holder's lock information releases the lock; without an ID (what
 * `terraform force-unlock` sends through this backend: it has no lock information; other
 * clients send an object without one) it releases whoever holds it. Unlocking a free state
 * succeeds.
 */
export async function unlockState(db: Db, alias: AliasRow, body: Buffer): Promise<BackendAnswer> {
  const info = parseLockInfo(body, true)
  if (typeof info === 'string') return error(400, info)
  const id = info === null || info.ID === '' ? null : info.ID
  const kept = await releaseLock(db, alias.inventory_id, id)
  return kept === null ? { status: 200 } : locked(kept)
}
