import type {
  CreateInventoryBody,
  Inventory,
  InventoryType,
  ListInventoryQuery,
  Refs,
  UpdateInventoryBody,
} from '@flagman/contract'
import { isSafeInventoryPath } from '@flagman/contract'
import type { Database, Db, InventoryTable } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import type { Kysely, Selectable } from 'kysely'
import { parseDocument } from 'yaml'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertInProject, assertSameIds, sortDirection } from '../project-scope.js'
import { assertUnused, findInventoryRefs } from '../references/index.js'

type CreateInput = z.output<typeof CreateInventoryBody>
type UpdateInput = z.output<typeof UpdateInventoryBody>
type ListQuery = z.output<typeof ListInventoryQuery>
type Row = Selectable<InventoryTable>

const HOST_TYPES: readonly InventoryType[] = ['static', 'static-yaml', 'file']

/** Which inventory types each app can use (`?app=` filter). */
const TYPES_BY_APP: Record<string, readonly InventoryType[]> = {
  ansible: HOST_TYPES,
  terraform: ['terraform-workspace'],
  tofu: ['tofu-workspace'],
}

function toInventory(row: Row): Inventory {
  return {
    id: row.id,
    name: row.name,
    project_id: row.project_id,
    type: row.type,
    inventory: row.inventory,
    ssh_key_id: row.ssh_key_id,
    become_key_id: row.become_key_id,
    repository_id: row.repository_id,
    template_id: row.template_id,
  }
}

async function keyOfProject(trx: Kysely<Database>, projectId: number, id: number, label: string) {
  const key = await trx
    .selectFrom('access_key')
    .select(['type', 'owner'])
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!key || key.owner !== '') throw new NotFoundError(label)
  return key
}

/** The content rules of each inventory type, and that referenced ids are in the project. */
async function validate(
  trx: Kysely<Database>,
  projectId: number,
  input: CreateInput,
): Promise<void> {
  const text = input.inventory
  if (input.type === 'static-yaml') {
    const doc = parseDocument(text)
    if (doc.errors.length > 0) {
      // The parser's message ends with a colon that introduces a source excerpt.
      const reason = (doc.errors[0]?.message ?? '').split('\n')[0]?.replace(/:\s*$/, '')
      throw new BadRequestError(`Inventory is not valid YAML: ${reason}`)
    }
  }
  if (input.type === 'file') {
    if (text === '') throw new BadRequestError('Inventory file path is required')
    if (!isSafeInventoryPath(text)) {
      throw new BadRequestError('Invalid inventory file pathname. Must be: path/to/inventory.')
    }
  }
  if (input.type === 'terraform-workspace' || input.type === 'tofu-workspace') {
    if (text === '') throw new BadRequestError('Workspace name is required')
  }
  if (HOST_TYPES.includes(input.type) && !input.ssh_key_id) {
    throw new BadRequestError('User credentials (ssh_key_id) are required')
  }
  if (input.ssh_key_id) await keyOfProject(trx, projectId, input.ssh_key_id, 'User credentials key')
  if (input.become_key_id) {
    const become = await keyOfProject(trx, projectId, input.become_key_id, 'Become key')
    if (become.type !== 'login_password') {
      throw new BadRequestError('The become key must be a login with password')
    }
  }
  if (input.repository_id) {
    await assertInProject(trx, 'repository', projectId, input.repository_id, 'Repository')
  }
  if (input.template_id) {
    await assertInProject(trx, 'template', projectId, input.template_id, 'Template')
  }
}

export async function listInventories(
  db: Db,
  projectId: number,
  query: ListQuery,
): Promise<Inventory[]> {
  let q = db.kysely.selectFrom('inventory').selectAll().where('project_id', '=', projectId)
  q =
    query.template_id === undefined
      ? q.where('template_id', 'is', null)
      : q.where('template_id', '=', query.template_id)
  const types =
    query.app && Object.hasOwn(TYPES_BY_APP, query.app) ? TYPES_BY_APP[query.app] : undefined
  if (types) q = q.where('type', 'in', [...types])
  const rows = await q.orderBy('name', sortDirection(query.order)).orderBy('id').execute()
  return rows.map(toInventory)
}

async function findRow(db: Kysely<Database>, projectId: number, id: number): Promise<Row> {
  const row = await db
    .selectFrom('inventory')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Inventory')
  return row
}

export async function getInventory(db: Db, projectId: number, id: number): Promise<Inventory> {
  return toInventory(await findRow(db.kysely, projectId, id))
}

function columns(input: CreateInput) {
  return {
    name: input.name,
    type: input.type,
    inventory: input.inventory,
    ssh_key_id: input.ssh_key_id ?? null,
    become_key_id: input.become_key_id ?? null,
    repository_id: input.repository_id ?? null,
    template_id: input.template_id ?? null,
  }
}

export async function createInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Inventory> {
  assertSameIds(input, { projectId }, 'Inventory')
  return db.kysely.transaction().execute(async (trx) => {
    await validate(trx, projectId, input)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'inventory', {
      project_id: projectId,
      ...columns(input),
      created: nowIso(),
    })
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'inventory',
      objectId: id,
      description: `Inventory ${input.name} created`,
    })
    return toInventory(await findRow(trx, projectId, id))
  })
}

export async function updateInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  assertSameIds(input, { projectId, id }, 'Inventory')
  await db.kysely.transaction().execute(async (trx) => {
    await findRow(trx, projectId, id)
    await validate(trx, projectId, input)
    await trx.updateTable('inventory').set(columns(input)).where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'inventory',
      objectId: id,
      description: `Inventory ${input.name} updated`,
    })
  })
}

export async function inventoryRefs(db: Db, projectId: number, id: number): Promise<Refs> {
  await findRow(db.kysely, projectId, id)
  return findInventoryRefs(db.kysely, projectId, id)
}

export async function deleteInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await findRow(trx, projectId, id)
    assertUnused(await findInventoryRefs(trx, projectId, id), 'Inventory')
    // Tasks keep their history; they just lose the link to the inventory.
    await trx
      .updateTable('task')
      .set({ inventory_id: null })
      .where('inventory_id', '=', id)
      .execute()
    await trx.deleteFrom('inventory').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'inventory',
      objectId: id,
      description: `Inventory ${row.name} deleted`,
    })
  })
}
