import type {
  AccessKey,
  AccessKeyType,
  CreateAccessKeyBody,
  Refs,
  UpdateAccessKeyBody,
} from '@flagman/contract'
import { MAX_TEXT_BYTES } from '@flagman/contract'
import type { AccessKeyTable, Db } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import type { Selectable } from 'kysely'
import type { z } from 'zod'
import { encryptKeySecret, type KeySecret } from '../../lib/key-secret.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { checkSshPrivateKey } from '../../lib/ssh-key.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertSameIds, sortDirection } from '../project-scope.js'
import { assertUnused, findKeyRefs } from '../references/index.js'

type CreateInput = z.output<typeof CreateAccessKeyBody>
type UpdateInput = z.output<typeof UpdateAccessKeyBody>
type KeyRow = Selectable<AccessKeyTable>

function toAccessKey(row: KeyRow, withEmpty: boolean): AccessKey {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    project_id: row.project_id,
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    string: '',
    override_secret: false,
    ...(withEmpty && row.secret === null ? { empty: true } : {}),
  }
}

/** Validates the secret part of a key body and returns what to store. */
async function secretFrom(
  type: AccessKeyType,
  input: CreateInput | UpdateInput,
): Promise<KeySecret | null> {
  if (type === 'none') return null
  if (type === 'ssh') {
    const ssh = input.ssh ?? {}
    const privateKey = ssh.private_key ?? ''
    if (privateKey.trim() === '') throw new BadRequestError('private key can not be empty')
    const problem = await checkSshPrivateKey(privateKey, ssh.passphrase ?? '')
    if (problem) throw new BadRequestError(`The private key can not be used: ${problem}`)
    return {
      type: 'ssh',
      login: ssh.login ?? '',
      passphrase: ssh.passphrase ?? '',
      private_key: privateKey,
    }
  }
  const lp = input.login_password ?? {}
  if (!lp.password) throw new BadRequestError('password can not be empty')
  return { type: 'login_password', login: lp.login ?? '', password: lp.password }
}

function encryptSecret(box: SecretBox, secret: KeySecret | null): string | null {
  const stored = encryptKeySecret(box, secret)
  if (stored === null) return null
  // Each field is bounded by the schema, but together they may not fit the column.
  if (stored.length > MAX_TEXT_BYTES) throw new BadRequestError('The secret is too long')
  return stored
}

const SORT = { name: 'name', type: 'type' } as const

export async function listKeys(
  db: Db,
  projectId: number,
  query: { sort?: 'name' | 'type'; order?: string },
): Promise<AccessKey[]> {
  const rows = await db.kysely
    .selectFrom('access_key')
    .selectAll()
    .where('project_id', '=', projectId)
    // Environment secrets are stored as keys too, but belong to their environment.
    .where('owner', '=', '')
    .orderBy(SORT[query.sort ?? 'name'], sortDirection(query.order))
    .orderBy('id')
    .execute()
  return rows.map((row) => toAccessKey(row, true))
}

async function findKeyRow(db: Db['kysely'], projectId: number, id: number): Promise<KeyRow> {
  const row = await db
    .selectFrom('access_key')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('owner', '=', '')
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Access key')
  return row
}

export async function getKey(db: Db, projectId: number, id: number): Promise<AccessKey> {
  return toAccessKey(await findKeyRow(db.kysely, projectId, id), false)
}

export async function createKey(
  db: Db,
  box: SecretBox,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<AccessKey> {
  assertSameIds(input, { projectId }, 'Access Key')
  const secret = encryptSecret(box, await secretFrom(input.type, input))
  return db.kysely.transaction().execute(async (trx) => {
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'access_key', {
      project_id: projectId,
      name: input.name,
      type: input.type,
      secret,
      created: nowIso(),
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'key',
      objectId: id,
      description: `Access Key ${input.name} created`,
    })
    return toAccessKey(await findKeyRow(trx, projectId, id), false)
  })
}

export async function updateKey(
  db: Db,
  box: SecretBox,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  assertSameIds(input, { projectId, id }, 'Access Key')
  const replace = input.override_secret === true
  const secret = replace ? encryptSecret(box, await secretFrom(input.type, input)) : undefined
  await db.kysely.transaction().execute(async (trx) => {
    await findKeyRow(trx, projectId, id)
    await trx
      .updateTable('access_key')
      .set(replace ? { name: input.name, type: input.type, secret } : { name: input.name })
      .where('id', '=', id)
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'key',
      objectId: id,
      description: `Access Key ${input.name} updated`,
    })
  })
}

export async function keyRefs(db: Db, projectId: number, id: number): Promise<Refs> {
  await findKeyRow(db.kysely, projectId, id)
  return findKeyRefs(db.kysely, projectId, id)
}

export async function deleteKey(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await findKeyRow(trx, projectId, id)
    assertUnused(await findKeyRefs(trx, projectId, id), 'Access Key')
    await trx.deleteFrom('access_key').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'key',
      objectId: id,
      description: `Access Key ${row.name} deleted`,
    })
  })
}
