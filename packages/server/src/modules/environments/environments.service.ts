import type {
  CreateEnvironmentBody,
  Environment,
  EnvironmentSecret,
  Refs,
  SecretType,
  UpdateEnvironmentBody,
} from '@flagman/contract'
import { MAX_TEXT_BYTES, parseJsonObject } from '@flagman/contract'
import type { Database, Db, EnvironmentTable } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import { sql, type Kysely, type Selectable } from 'kysely'
import type { z } from 'zod'
import type { SecretBox } from '../../lib/secret-box.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { jsonDepthExceeds, tooDeepMessage } from '../../platform/json-body.js'
import { insertEvent } from '../events/index.js'
import { assertSameIds, sortDirection } from '../project-scope.js'
import { assertUnused, findEnvironmentRefs } from '../references/index.js'

type CreateInput = z.output<typeof CreateEnvironmentBody>
type UpdateInput = z.output<typeof UpdateEnvironmentBody>
type Row = Selectable<EnvironmentTable>
type SecretChanges = NonNullable<CreateInput['secrets']>

/** Environment secrets live in `access_key` with the secret's kind as owner. */
const SECRET_OWNERS: readonly SecretType[] = ['var', 'env']

/**
 * The password is write-only, like the secrets: an answer says only whether one is stored
 * (`""`) or not (`null`), never what it is.
 */
function toEnvironment(row: Row, secrets: EnvironmentSecret[] | null): Environment {
  return {
    id: row.id,
    name: row.name,
    project_id: row.project_id,
    password: row.password === null || row.password === '' ? null : '',
    json: row.json,
    env: row.env,
    image: row.image,
    secrets,
  }
}

function checkJson(input: CreateInput): void {
  // Tasks walk these objects recursively (merging, serialising); bound their depth here.
  if (jsonDepthExceeds(input.json)) throw new BadRequestError(tooDeepMessage('Extra variables'))
  const json = parseJsonObject(input.json)
  if (!json.ok) throw new BadRequestError(`Extra variables must be valid JSON: ${json.reason}`)
  if (input.env !== undefined && input.env !== null && input.env.trim() !== '') {
    if (jsonDepthExceeds(input.env)) {
      throw new BadRequestError(tooDeepMessage('Environment variables'))
    }
    const env = parseJsonObject(input.env)
    if (!env.ok)
      throw new BadRequestError(`Environment variables must be valid JSON: ${env.reason}`)
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

async function listSecrets(
  db: Kysely<Database>,
  environmentId: number,
): Promise<EnvironmentSecret[]> {
  const rows = await db
    .selectFrom('access_key')
    .select(['id', 'name', 'owner'])
    .where('environment_id', '=', environmentId)
    .where('owner', 'in', [...SECRET_OWNERS])
    .execute()
  // Sorted here rather than by the database, whose collation differs between dialects.
  rows.sort(
    (a, b) =>
      compareText(a.name.toLowerCase(), b.name.toLowerCase()) ||
      compareText(a.name, b.name) ||
      a.id - b.id,
  )
  return rows.map((r) => ({
    id: r.id,
    type: r.owner as SecretType,
    name: r.name,
    secret: '',
    operation: '',
  }))
}

function encryptValue(box: SecretBox, name: string, value: string): string {
  const stored = box.encrypt(value)
  if (stored.length > MAX_TEXT_BYTES) throw new BadRequestError(`Secret ${name} is too long`)
  return stored
}

/** Applies create/update/delete operations to an environment's secrets. */
async function applySecretChanges(
  trx: Kysely<Database>,
  box: SecretBox,
  projectId: number,
  environmentId: number,
  changes: SecretChanges,
): Promise<void> {
  const existing = await listSecrets(trx, environmentId)
  const byId = new Map(existing.map((s) => [s.id, s]))
  const names = new Set(existing.map((s) => `${s.type}:${s.name}`))
  for (const change of changes) {
    if (change.operation === '') continue
    if (change.operation === 'create') {
      const slot = `${change.type}:${change.name}`
      if (names.has(slot)) throw new BadRequestError(`A secret named ${change.name} already exists`)
      names.add(slot)
      await trx
        .insertInto('access_key')
        .values({
          project_id: projectId,
          environment_id: environmentId,
          name: change.name,
          type: 'string',
          owner: change.type,
          secret: encryptValue(box, change.name, change.secret),
          created: nowIso(),
        })
        .execute()
      continue
    }
    const current = byId.get(change.id)
    if (!current) throw new NotFoundError(`Secret ${change.id} of this environment`)
    if (change.operation === 'delete') {
      await trx.deleteFrom('access_key').where('id', '=', change.id).execute()
      names.delete(`${current.type}:${current.name}`)
      continue
    }
    const slot = `${change.type}:${change.name}`
    if (slot !== `${current.type}:${current.name}` && names.has(slot)) {
      throw new BadRequestError(`A secret named ${change.name} already exists`)
    }
    names.delete(`${current.type}:${current.name}`)
    names.add(slot)
    await trx
      .updateTable('access_key')
      .set({
        name: change.name,
        owner: change.type,
        // An empty value keeps the stored one: the console never sees it to send it back.
        ...(change.secret !== '' ? { secret: encryptValue(box, change.name, change.secret) } : {}),
      })
      .where('id', '=', change.id)
      .execute()
  }
}

export async function listEnvironments(
  db: Db,
  projectId: number,
  query: { order?: string },
): Promise<Environment[]> {
  const rows = await db.kysely
    .selectFrom('environment')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('name', sortDirection(query.order))
    .orderBy('id')
    .execute()
  return rows.map((row) => toEnvironment(row, null))
}

async function findRow(db: Kysely<Database>, projectId: number, id: number): Promise<Row> {
  const row = await db
    .selectFrom('environment')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Environment')
  return row
}

export async function getEnvironment(db: Db, projectId: number, id: number): Promise<Environment> {
  const row = await findRow(db.kysely, projectId, id)
  return toEnvironment(row, await listSecrets(db.kysely, id))
}

function columns(input: CreateInput) {
  return {
    name: input.name,
    json: input.json.trim() === '' ? '{}' : input.json,
    env: input.env ?? null,
    // Omitted on update keeps the stored image (see EnvironmentImage).
    ...(input.image !== undefined ? { image: input.image } : {}),
  }
}

/** The stored form of a new password: encrypted, or null for none. */
function encryptPassword(box: SecretBox, password: string | null | undefined): string | null {
  return password ? encryptValue(box, 'password', password) : null
}

/**
 * How an update changes the stored password: a non-empty value replaces it, `clear_password`
 * removes it, and anything else (omitted, null or empty, as a client sends back what it
 * read) keeps it.
 */
function passwordChange(box: SecretBox, input: UpdateInput): { password?: string | null } {
  if (input.clear_password) {
    if (input.password) {
      throw new BadRequestError('Send either a new password or clear_password, not both')
    }
    return { password: null }
  }
  return input.password ? { password: encryptValue(box, 'password', input.password) } : {}
}

/**
 * Whether a stored password is already encrypted: it decrypts with the key, or it has the
 * exact stored form of SecretBox (`v1:` + base64 of at least IV and tag) and so is ciphertext
 * under another key, which must never be wrapped a second time.
 */
function isEncrypted(box: SecretBox, stored: string): boolean {
  try {
    box.decrypt(stored)
    return true
  } catch {
    const body = /^v1:([A-Za-z0-9+/]+={0,2})$/.exec(stored)?.[1]
    return body !== undefined && Buffer.from(body, 'base64').length >= 28
  }
}

/**
 * Encrypts environment passwords still stored in plain text (written by an earlier version),
 * and turns empty ones into none. Runs at every start; rows already encrypted are left alone.
 * Returns how many rows were rewritten.
 */
export async function encryptStoredPasswords(db: Db, box: SecretBox): Promise<number> {
  const rows = await db.kysely
    .selectFrom('environment')
    .select(['id', 'password'])
    .where('password', 'is not', null)
    .execute()
  let changed = 0
  for (const row of rows) {
    const stored = row.password ?? ''
    if (stored !== '' && isEncrypted(box, stored)) continue
    await db.kysely
      .updateTable('environment')
      .set({ password: encryptPassword(box, stored) })
      .where('id', '=', row.id)
      .where('password', '=', stored)
      .execute()
    changed += 1
  }
  if (changed > 0 && db.dialect === 'sqlite') {
    // Moves the rewritten pages into the database file and empties the write-ahead log, so
    // the plain text is gone from both files (deleted content is zeroed, see create-db).
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db.kysely)
  }
  return changed
}

export async function createEnvironment(
  db: Db,
  box: SecretBox,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Environment> {
  assertSameIds(input, { projectId }, 'Environment')
  checkJson(input)
  return db.kysely.transaction().execute(async (trx) => {
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'environment', {
      project_id: projectId,
      ...columns(input),
      password: encryptPassword(box, input.password),
      created: nowIso(),
    })
    await applySecretChanges(trx, box, projectId, id, input.secrets ?? [])
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'environment',
      objectId: id,
      description: `Environment ${input.name} created`,
    })
    return toEnvironment(await findRow(trx, projectId, id), await listSecrets(trx, id))
  })
}

export async function updateEnvironment(
  db: Db,
  box: SecretBox,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  assertSameIds(input, { projectId, id }, 'Environment')
  checkJson(input)
  await db.kysely.transaction().execute(async (trx) => {
    await findRow(trx, projectId, id)
    await trx
      .updateTable('environment')
      .set({ ...columns(input), ...passwordChange(box, input) })
      .where('id', '=', id)
      .execute()
    await applySecretChanges(trx, box, projectId, id, input.secrets ?? [])
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'environment',
      objectId: id,
      description: `Environment ${input.name} updated`,
    })
  })
}

export async function environmentRefs(db: Db, projectId: number, id: number): Promise<Refs> {
  await findRow(db.kysely, projectId, id)
  return findEnvironmentRefs(db.kysely, projectId, id)
}

export async function deleteEnvironment(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await findRow(trx, projectId, id)
    assertUnused(await findEnvironmentRefs(trx, projectId, id), 'Environment')
    await trx.deleteFrom('access_key').where('environment_id', '=', id).execute()
    await trx.deleteFrom('environment').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'environment',
      objectId: id,
      description: `Environment ${row.name} deleted`,
    })
  })
}
