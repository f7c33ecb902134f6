import type { TerraformState, TerraformStateSource } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import type { Kysely } from 'kysely'
import { sha256 } from '../../lib/secrets.js'
import { promisify } from 'node:util'
import { gunzip, gzip } from 'node:zlib'

const gzipAsync = promisify(gzip)
const gunzipAsync = promisify(gunzip)

/** Compressed state text is stored in rows of at most this many bytes (MySQL packets stop at 16 MiB). */
export const CHUNK_BYTES = 4 * 1024 * 1024

/** A state version as stored, without its text. */
export type StateVersion = Omit<TerraformState, 'state'> & { digest: string }

/** Who writes a version. */
export interface StateWriter {
  source: TerraformStateSource
  taskId: number | null
  aliasId: number | null
  userId: number | null
  restoredFrom: number | null
}

/** Terraform's serial and lineage, when the text is a state object carrying them. */
export function stateCounters(state: Record<string, unknown>): {
  serial: number | null
  lineage: string | null
} {
  const serial =
    typeof state.serial === 'number' && Number.isSafeInteger(state.serial) ? state.serial : null
  const lineage =
    typeof state.lineage === 'string' && state.lineage.length <= 255 ? state.lineage : null
  return { serial, lineage }
}

function versionsQuery(kysely: Kysely<Database>) {
  return kysely
    .selectFrom('terraform_state as s')
    .leftJoin('task as t', 't.id', 's.task_id')
    .leftJoin('user as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.created',
      's.task_id',
      't.status as status',
      's.project_id',
      's.inventory_id',
      's.source',
      's.alias_id',
      's.user_id',
      'u.name as user_name',
      's.restored_from',
      's.serial',
      's.lineage',
      's.size',
      's.digest',
    ])
}

type VersionRow = Awaited<ReturnType<ReturnType<typeof versionsQuery>['executeTakeFirstOrThrow']>>

function toVersion(row: VersionRow): StateVersion {
  return {
    id: row.id,
    created: row.created,
    task_id: row.task_id,
    status: row.status ?? null,
    project_id: row.project_id,
    inventory_id: row.inventory_id,
    source: row.source as TerraformStateSource,
    alias_id: row.alias_id,
    user_id: row.user_id,
    user_name: row.user_name ?? null,
    restored_from: row.restored_from,
    serial: row.serial === null ? null : Number(row.serial),
    lineage: row.lineage,
    size: Number(row.size),
    digest: row.digest,
  }
}

/** Versions of a workspace's state, newest first. */
export async function listVersions(
  db: Db,
  inventoryId: number,
  page: { limit?: number; offset?: number } = {},
): Promise<StateVersion[]> {
  let query = versionsQuery(db.kysely)
    .where('s.inventory_id', '=', inventoryId)
    .orderBy('s.id', 'desc')
  if (page.limit !== undefined) query = query.limit(page.limit)
  if (page.offset !== undefined) {
    // MySQL and SQLite accept OFFSET only together with LIMIT.
    if (page.limit === undefined) query = query.limit(Number.MAX_SAFE_INTEGER)
    query = query.offset(page.offset)
  }
  return (await query.execute()).map(toVersion)
}

/** One version of a workspace, or null. */
export async function findVersion(
  db: Db,
  inventoryId: number,
  stateId: number,
): Promise<StateVersion | null> {
  const row = await versionsQuery(db.kysely)
    .where('s.inventory_id', '=', inventoryId)
    .where('s.id', '=', stateId)
    .executeTakeFirst()
  return row ? toVersion(row) : null
}

/** The current (newest) version of a workspace, or null when it has none. */
export async function latestVersion(db: Db, inventoryId: number): Promise<StateVersion | null> {
  const row = await versionsQuery(db.kysely)
    .where('s.inventory_id', '=', inventoryId)
    .orderBy('s.id', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row ? toVersion(row) : null
}

/** The text of a version, decompressed. */
export async function readStateText(db: Db, stateId: number): Promise<Buffer> {
  const chunks = await db.kysely
    .selectFrom('terraform_state_chunk')
    .select('data')
    .where('state_id', '=', stateId)
    .orderBy('seq')
    .execute()
  const compressed = Buffer.concat(chunks.map((c) => Buffer.from(c.data)))
  return gunzipAsync(compressed)
}

/**
 * Stores a new version (the text must already be checked as a JSON state). An identical text
 * to the current version stores nothing: Terraform writes the same state several times during
 * one apply. Returns the current version after the write.
 */
export async function writeVersion(
  db: Db,
  where: { projectId: number; inventoryId: number },
  text: Buffer,
  counters: { serial: number | null; lineage: string | null },
  writer: StateWriter,
): Promise<StateVersion> {
  const digest = sha256(text)
  const current = await latestVersion(db, where.inventoryId)
  if (current !== null && current.digest === digest && writer.source !== 'restore') return current
  const compressed = await gzipAsync(text)
  const id = await db.kysely.transaction().execute(async (trx) => {
    const stateId = await insertReturningId(
      { kysely: trx, dialect: db.dialect },
      'terraform_state',
      {
        project_id: where.projectId,
        inventory_id: where.inventoryId,
        task_id: writer.taskId,
        alias_id: writer.aliasId,
        user_id: writer.userId,
        source: writer.source,
        restored_from: writer.restoredFrom,
        serial: counters.serial,
        lineage: counters.lineage,
        size: text.length,
        digest,
        created: nowIso(),
      },
    )
    for (let seq = 0; seq * CHUNK_BYTES < compressed.length || seq === 0; seq++) {
      await trx
        .insertInto('terraform_state_chunk')
        .values({
          state_id: stateId,
          seq,
          data: compressed.subarray(seq * CHUNK_BYTES, (seq + 1) * CHUNK_BYTES),
        })
        .execute()
    }
    return stateId
  })
  const stored = await findVersion(db, where.inventoryId, id)
  if (stored === null) throw new Error(`State version ${String(id)} vanished after its write`)
  return stored
}

/** Deletes one version (its chunks go with it). Returns false when it did not exist. */
export async function deleteVersion(
  db: Db,
  inventoryId: number,
  stateId: number,
): Promise<boolean> {
  return db.kysely.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('terraform_state')
      .select('id')
      .where('id', '=', stateId)
      .where('inventory_id', '=', inventoryId)
      .executeTakeFirst()
    if (!found) return false
    await trx.deleteFrom('terraform_state_chunk').where('state_id', '=', stateId).execute()
    await trx.deleteFrom('terraform_state').where('id', '=', stateId).execute()
    return true
  })
}

/** Deletes every version of a workspace: the protocol's DELETE (Terraform's state purge). */
export async function deleteAllVersions(db: Db, inventoryId: number): Promise<number> {
  return db.kysely.transaction().execute(async (trx) => {
    const ids = (
      await trx
        .selectFrom('terraform_state')
        .select('id')
        .where('inventory_id', '=', inventoryId)
        .execute()
    ).map((r) => r.id)
    if (ids.length === 0) return 0
    await trx.deleteFrom('terraform_state_chunk').where('state_id', 'in', ids).execute()
    await trx.deleteFrom('terraform_state').where('inventory_id', '=', inventoryId).execute()
    return ids.length
  })
}
