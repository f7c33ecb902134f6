import type { TerraformLockInfo, TerraformLockStatus } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'

export interface HeldLock {
  lockId: string
  info: TerraformLockInfo
  since: string
  taskId: number | null
  aliasId: number | null
}

function parseInfo(text: string, lockId: string): TerraformLockInfo {
  try {
    const value: unknown = JSON.parse(text)
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return { ...(value as Record<string, unknown>), ID: lockId } as TerraformLockInfo
    }
  } catch {
    // Stored by this server, so always JSON; the id alone still describes the lock.
  }
  return { ID: lockId }
}

/** The lock of a workspace, or null when it is free. */
export async function readLock(db: Db, inventoryId: number): Promise<HeldLock | null> {
  const row = await db.kysely
    .selectFrom('terraform_lock')
    .selectAll()
    .where('inventory_id', '=', inventoryId)
    .executeTakeFirst()
  if (!row) return null
  return {
    lockId: row.lock_id,
    info: parseInfo(row.info, row.lock_id),
    since: row.created,
    taskId: row.task_id,
    aliasId: row.alias_id,
  }
}

export function lockStatus(lock: HeldLock | null): TerraformLockStatus {
  return lock === null
    ? { locked: false, info: null, since: null, task_id: null, alias_id: null }
    : {
        locked: true,
        info: lock.info,
        since: lock.since,
        task_id: lock.taskId,
        alias_id: lock.aliasId,
      }
}

/**
 * Takes the lock of a workspace. The workspace id is the table's primary key, so of clients
 * racing for a free lock exactly one insert succeeds. Taking a lock again with the id that
 * holds it succeeds too (a retried request). Returns null on success, else the holder.
 */
export async function acquireLock(
  db: Db,
  where: { projectId: number; inventoryId: number },
  info: TerraformLockInfo,
  holder: { taskId: number | null; aliasId: number | null },
): Promise<HeldLock | null> {
  const values = {
    inventory_id: where.inventoryId,
    project_id: where.projectId,
    task_id: holder.taskId,
    alias_id: holder.aliasId,
    lock_id: info.ID,
    info: JSON.stringify(info),
    created: nowIso(),
  }
  const insert = db.kysely.insertInto('terraform_lock').values(values)
  const result =
    db.dialect === 'mysql'
      ? await insert.ignore().executeTakeFirst()
      : await insert.onConflict((oc) => oc.column('inventory_id').doNothing()).executeTakeFirst()
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 1) return null
  const held = await readLock(db, where.inventoryId)
  if (held === null) {
    // Released between the insert and the read: try once more.
    const retry =
      db.dialect === 'mysql'
        ? await db.kysely.insertInto('terraform_lock').values(values).ignore().executeTakeFirst()
        : await db.kysely
            .insertInto('terraform_lock')
            .values(values)
            .onConflict((oc) => oc.column('inventory_id').doNothing())
            .executeTakeFirst()
    if (Number(retry.numInsertedOrUpdatedRows ?? 0n) === 1) return null
    return (
      (await readLock(db, where.inventoryId)) ?? {
        lockId: '',
        info: { ID: '' },
        since: nowIso(),
        taskId: null,
        aliasId: null,
      }
    )
  }
  return held.lockId === info.ID ? null : held
}

/**
 * Releases the lock. With a lock id, only when that id holds it; without one (a force unlock)
 * whoever holds it. Returns the holder that kept the lock, or null when it is free afterwards.
 */
export async function releaseLock(
  db: Db,
  inventoryId: number,
  lockId: string | null,
): Promise<HeldLock | null> {
  let query = db.kysely.deleteFrom('terraform_lock').where('inventory_id', '=', inventoryId)
  if (lockId !== null) query = query.where('lock_id', '=', lockId)
  await query.execute()
  return readLock(db, inventoryId)
}

/** Releases every lock a finished task still holds; true when it held one. */
export async function releaseTaskLocks(db: Db, taskId: number): Promise<boolean> {
  const result = await db.kysely
    .deleteFrom('terraform_lock')
    .where('task_id', '=', taskId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}
