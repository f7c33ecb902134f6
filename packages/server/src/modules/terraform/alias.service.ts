import type { SaveTerraformAliasBody, TerraformAlias } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { findAlias, insertAlias, listAliases, toAlias } from './alias-store.js'
import { findInventory, findWorkspace, WORKSPACE_TYPES, type Workspace } from './state.service.js'

/** The key guarding an alias: a login_password key of the same project. */
async function assertAliasKey(db: Db, projectId: number, keyId: number): Promise<void> {
  const key = await db.kysely
    .selectFrom('access_key')
    .select(['id', 'type'])
    .where('project_id', '=', projectId)
    .where('id', '=', keyId)
    .executeTakeFirst()
  if (!key) throw new NotFoundError('Access Key')
  if (key.type !== 'login_password') {
    throw new BadRequestError('The alias key must be of type login_password')
  }
}

async function aliasOf(db: Db, workspace: Workspace, id: number) {
  const row = await findAlias(db, workspace.id, id)
  if (!row) throw new NotFoundError('Alias')
  return row
}

export async function listWorkspaceAliases(
  db: Db,
  base: string,
  projectId: number,
  inventoryId: number,
): Promise<TerraformAlias[]> {
  // Other inventories have no aliases, as the compatible API answers.
  const inventory = await findInventory(db, projectId, inventoryId)
  if (!WORKSPACE_TYPES.includes(inventory.type)) return []
  return (await listAliases(db, inventory.id)).map((row) => toAlias(base, row))
}

export async function getWorkspaceAlias(
  db: Db,
  base: string,
  projectId: number,
  inventoryId: number,
  id: number,
): Promise<TerraformAlias> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  return toAlias(base, await aliasOf(db, workspace, id))
}

export async function createWorkspaceAlias(
  db: Db,
  base: string,
  actor: Actor,
  projectId: number,
  inventoryId: number,
  body: SaveTerraformAliasBody,
): Promise<TerraformAlias> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  await assertAliasKey(db, projectId, body.auth_key_id)
  const row = await insertAlias(db, {
    projectId,
    inventoryId: workspace.id,
    authKeyId: body.auth_key_id,
  })
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'terraform_inventory_alias',
    objectId: row.id,
    description: `Terraform alias ${String(row.id)} of workspace ${workspace.name} created`,
  })
  return toAlias(base, row)
}

export async function updateWorkspaceAlias(
  db: Db,
  actor: Actor,
  projectId: number,
  inventoryId: number,
  id: number,
  body: SaveTerraformAliasBody,
): Promise<void> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const row = await aliasOf(db, workspace, id)
  await assertAliasKey(db, projectId, body.auth_key_id)
  await db.kysely
    .updateTable('terraform_alias')
    .set({ auth_key_id: body.auth_key_id })
    .where('id', '=', row.id)
    .execute()
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'terraform_inventory_alias',
    objectId: row.id,
    description: `Terraform alias ${String(row.id)} of workspace ${workspace.name} updated`,
  })
}

export async function deleteWorkspaceAlias(
  db: Db,
  actor: Actor,
  projectId: number,
  inventoryId: number,
  id: number,
): Promise<void> {
  const workspace = await findWorkspace(db, projectId, inventoryId)
  const row = await aliasOf(db, workspace, id)
  await db.kysely.deleteFrom('terraform_alias').where('id', '=', row.id).execute()
  await insertEvent(db.kysely, {
    projectId,
    userId: actor.id,
    objectType: 'terraform_inventory_alias',
    objectId: row.id,
    description: `Terraform alias ${String(row.id)} of workspace ${workspace.name} deleted`,
  })
}
