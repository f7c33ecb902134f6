import type { Database, Db } from '@flagman/db'
import type { Kysely } from 'kysely'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { INVENTORY_TYPES_BY_APP, isWorkspaceApp } from './templates.service.js'

type Trx = Kysely<Database>

interface Pair {
  template: { id: number; app: string; inventory_id: number | null }
  inventory: { id: number; type: string; template_id: number | null }
}

/** The template and the inventory, both of the project, or 404. */
async function findPair(
  trx: Trx,
  projectId: number,
  templateId: number,
  inventoryId: number,
): Promise<Pair> {
  const template = await trx
    .selectFrom('template')
    .select(['id', 'app', 'inventory_id'])
    .where('project_id', '=', projectId)
    .where('id', '=', templateId)
    .executeTakeFirst()
  if (!template) throw new NotFoundError('Template')
  const inventory = await trx
    .selectFrom('inventory')
    .select(['id', 'type', 'template_id'])
    .where('project_id', '=', projectId)
    .where('id', '=', inventoryId)
    .executeTakeFirst()
  if (!inventory) throw new NotFoundError('Inventory')
  return { template, inventory }
}

function assertTypeFits({ template, inventory }: Pair): void {
  const allowed = INVENTORY_TYPES_BY_APP[template.app]
  if (!allowed?.includes(inventory.type)) {
    throw new BadRequestError('Inventory type is not supported for this template')
  }
}

async function change(
  db: Db,
  actor: Actor,
  projectId: number,
  templateId: number,
  inventoryId: number,
  apply: (trx: Trx, pair: Pair) => Promise<string>,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const pair = await findPair(trx, projectId, templateId, inventoryId)
    const description = await apply(trx, pair)
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'template',
      objectId: templateId,
      description,
    })
  })
}

/** Makes the inventory one the template owns (a Terraform/OpenTofu workspace). */
export function attachInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  templateId: number,
  inventoryId: number,
): Promise<void> {
  return change(db, actor, projectId, templateId, inventoryId, async (trx, pair) => {
    if (pair.inventory.template_id !== null && pair.inventory.template_id !== templateId) {
      throw new BadRequestError('Inventory is already attached to another template')
    }
    assertTypeFits(pair)
    await trx
      .updateTable('inventory')
      .set({ template_id: templateId })
      .where('id', '=', inventoryId)
      .execute()
    return `Inventory ${inventoryId} attached to template ${templateId}`
  })
}

/** Releases an inventory the template owns; it becomes a project inventory again. */
export function detachInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  templateId: number,
  inventoryId: number,
): Promise<void> {
  return change(db, actor, projectId, templateId, inventoryId, async (trx, pair) => {
    if (pair.inventory.template_id !== templateId) {
      throw new BadRequestError('Inventory is not attached to this template')
    }
    await trx
      .updateTable('inventory')
      .set({ template_id: null })
      .where('id', '=', inventoryId)
      .execute()
    return `Inventory ${inventoryId} detached from template ${templateId}`
  })
}

/** Makes the inventory the one the template runs with. */
export function setDefaultInventory(
  db: Db,
  actor: Actor,
  projectId: number,
  templateId: number,
  inventoryId: number,
): Promise<void> {
  return change(db, actor, projectId, templateId, inventoryId, async (trx, pair) => {
    assertTypeFits(pair)
    // A workspace must belong to the template before it can be its default.
    if (isWorkspaceApp(pair.template.app) && pair.inventory.template_id !== templateId) {
      throw new BadRequestError('Inventory is not attached to this template')
    }
    await trx
      .updateTable('template')
      .set({ inventory_id: inventoryId })
      .where('id', '=', templateId)
      .execute()
    return `Template ID ${templateId} updated`
  })
}
