import type {
  ListTerraformStatesQuery,
  TerraformLockStatus,
  TerraformState,
  TerraformStateDiff,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { AppError, BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { lockStatus, readLock, releaseLock, type HeldLock } from './lock-store.js'
import { diffStateTexts } from './state-diff.js'
import {
  deleteVersion,
  findVersion,
  latestVersion,
  listVersions,
  readStateText,
  writeVersion,
  type StateVersion,
} from './state-store.js'

type ListQuery = z.output<typeof ListTerraformStatesQuery>

export const WORKSPACE_TYPES: readonly string[] = ['terraform-workspace', 'tofu-workspace']

/** An inventory of the project that holds Terraform/OpenTofu state. */
export interface Workspace {
  id: number
  projectId: number
  name: string
}

export async function findInventory(db: Db, projectId: number, inventoryId: number) {
  const row = await db.kysely
    .selectFrom('inventory')
    .select(['id', 'project_id', 'name', 'type'])
    .where('project_id', '=', projectId)
    .where('id', '=', inventoryId)
    .executeTakeFirst()
  // An inventory of another project answers exactly like one that does not exist.
  if (!row) throw new NotFoundError('Inventory')
  return row
}

/** The workspace named by the URL: 404 outside the project, 400 for other inventories. */
export async function findWorkspace(
  db: Db,
  projectId: number,
  inventoryId: number,
): Promise<Workspace> {
  const row = await findInventory(db, projectId, inventoryId)
  if (!WORKSPACE_TYPES.includes(row.type)) {
    throw new BadRequestError(`Inventory ${row.name} is not a Terraform/OpenTofu workspace`)
  }
  return { id: row.id, projectId: row.project_id, name: row.name }
}

/** A version as the API shows it: the digest is the store's own business. */
function toState(version: StateVersion, text?: Buffer): TerraformState {
  const { digest: _digest, ...state } = version
  return text === undefined ? state : { ...state, state: text.toString('utf8') }
}

async function findState(db: Db, workspace: Workspace, stateId: number): Promise<StateVersion> {
  const version = await findVersion(db, workspace.id, stateId)
  if (!version) throw new NotFoundError('State')
  return version
}

/** Who holds a lock, in the words of its lock information. */
function holderOf(lock: HeldLock): string {
  const who = lock.info.Who ?? (lock.taskId !== null ? `task ${String(lock.taskId)}` : 'a client')
  return lock.info.Operation ? `${who} (${lock.info.Operation})` : who
}

/** Refuses a change of the current state while someone holds the lock. */
async function assertUnlocked(db: Db, workspace: Workspace): Promise<void> {
  const lock = await readLock(db, workspace.id)
  if (lock) {
    throw new ConflictError(
      `The state is locked by ${holderOf(lock)} since ${lock.since}; unlock it first`,
    )
  }
}

/**
 * Versions, newest first, without their text. Any other inventory has none: the compatible
 * API answers an empty list for every inventory, so lists do not refuse one.
 */
export async function listStates(
  db: Db,
  projectId: number,
  inventoryId: number,
  query: ListQuery,
): Promise<TerraformState[]> {
  const inventory = await findInventory(db, projectId, inventoryId)
  if (!WORKSPACE_TYPES.includes(inventory.type)) return []
  return (await listVersions(db, inventory.id, query)).map((v) => toState(v))
}

export async function latestState(
  db: Db,
  projectId: number,
  inventoryId: number,
): Promise<TerraformState> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const version = await latestVersion(db, workspace.id)
  if (!version) throw new AppError(404, 'No state found')
  return toState(version, await readStateText(db, version.id))
}

export async function getState(
  db: Db,
  projectId: number,
  inventoryId: number,
  stateId: number,
): Promise<TerraformState> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const version = await findState(db, workspace, stateId)
  return toState(version, await readStateText(db, version.id))
}

/** Deletes one version; the current one only while nobody holds the lock. */
export async function removeState(
  db: Db,
  actor: Actor,
  projectId: number,
  inventoryId: number,
  stateId: number,
): Promise<void> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  await findState(db, workspace, stateId)
  const current = await latestVersion(db, workspace.id)
  // Deleting the current version makes the one before it current: that changes the state
  // a lock holder is working on, as a restore would.
  if (current?.id === stateId) await assertUnlocked(db, workspace)
  if (!(await deleteVersion(db, workspace.id, stateId))) throw new NotFoundError('State')
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'inventory',
    objectId: workspace.id,
    description: `Terraform state version ${String(stateId)} of workspace ${workspace.name} deleted`,
  })
}

/**
 * Makes an earlier version current again by storing its text as a new version, so the
 * history keeps what was current before. The copy keeps the serial and lineage of the text
 * it copies: they describe that text.
 */
export async function restoreState(
  db: Db,
  actor: Actor,
  projectId: number,
  inventoryId: number,
  stateId: number,
): Promise<TerraformState> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const source = await findState(db, workspace, stateId)
  await assertUnlocked(db, workspace)
  const text = await readStateText(db, source.id)
  const version = await writeVersion(
    db,
    { projectId, inventoryId: workspace.id },
    text,
    { serial: source.serial, lineage: source.lineage },
    { source: 'restore', taskId: null, aliasId: null, userId: actor.id, restoredFrom: source.id },
  )
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'inventory',
    objectId: workspace.id,
    description: `Terraform state of workspace ${workspace.name} restored from version ${String(source.id)}`,
  })
  return toState(version)
}

export async function diffStates(
  db: Db,
  projectId: number,
  inventoryId: number,
  query: { from: number; to: number },
): Promise<TerraformStateDiff> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const from = await findState(db, workspace, query.from)
  const to = await findState(db, workspace, query.to)
  const [fromText, toText] = await Promise.all([
    readStateText(db, from.id),
    readStateText(db, to.id),
  ])
  return {
    from: toState(from),
    to: toState(to),
    ...diffStateTexts(fromText.toString('utf8'), toText.toString('utf8')),
  }
}

export async function getLock(
  db: Db,
  projectId: number,
  inventoryId: number,
): Promise<TerraformLockStatus> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  return lockStatus(await readLock(db, workspace.id))
}

/** Releases the lock whoever holds it, as `terraform force-unlock` does. */
export async function forceUnlock(
  db: Db,
  actor: Actor,
  projectId: number,
  inventoryId: number,
): Promise<void> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const held = await readLock(db, workspace.id)
  if (!held) return
  await releaseLock(db, workspace.id, null)
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'inventory',
    objectId: workspace.id,
    description: `Terraform state of workspace ${workspace.name} force-unlocked`,
  })
}
