import type { RefItem, Refs } from '@flagman/contract'
import { hasRefs } from '@flagman/contract'
import type { Database } from '@flagman/db'
import type { Kysely } from 'kysely'
import { BadRequestError } from '../../platform/errors.js'

type Q = Kysely<Database>

function emptyRefs(): Refs {
  return { templates: [], inventories: [], repositories: [], integrations: [], schedules: [] }
}

/** Distinct by id and in a stable order (by name, then id), whatever the database. */
function unique(items: RefItem[]): RefItem[] {
  const seen = new Map<number, RefItem>()
  for (const item of items) seen.set(item.id, item)
  return [...seen.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id)
}

/** Templates, repositories, inventories (also through their state aliases) and integrations that use a key. */
export async function findKeyRefs(db: Q, projectId: number, keyId: number): Promise<Refs> {
  const refs = emptyRefs()
  refs.repositories = unique(
    await db
      .selectFrom('repository')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('ssh_key_id', '=', keyId)
      .execute(),
  )
  refs.inventories = unique(
    await db
      .selectFrom('inventory')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where((eb) => eb.or([eb('ssh_key_id', '=', keyId), eb('become_key_id', '=', keyId)]))
      .execute(),
  )
  // A Terraform workspace whose state-backend alias the key guards.
  refs.inventories = unique([
    ...refs.inventories,
    ...(await db
      .selectFrom('terraform_alias')
      .innerJoin('inventory', 'inventory.id', 'terraform_alias.inventory_id')
      .select(['inventory.id', 'inventory.name'])
      .where('terraform_alias.project_id', '=', projectId)
      .where('terraform_alias.auth_key_id', '=', keyId)
      .execute()),
  ])
  refs.templates = unique(
    await db
      .selectFrom('template_vault')
      .innerJoin('template', 'template.id', 'template_vault.template_id')
      .select(['template.id', 'template.name'])
      .where('template_vault.project_id', '=', projectId)
      .where('template_vault.vault_key_id', '=', keyId)
      .execute(),
  )
  refs.integrations = unique(
    await db
      .selectFrom('integration')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('auth_secret_id', '=', keyId)
      .execute(),
  )
  return refs
}

export async function findRepositoryRefs(
  db: Q,
  projectId: number,
  repositoryId: number,
): Promise<Refs> {
  const refs = emptyRefs()
  refs.templates = unique(
    await db
      .selectFrom('template')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('repository_id', '=', repositoryId)
      .execute(),
  )
  refs.inventories = unique(
    await db
      .selectFrom('inventory')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('repository_id', '=', repositoryId)
      .execute(),
  )
  // Schedules are listed by their template, as the console links to templates.
  refs.schedules = unique(
    await db
      .selectFrom('schedule')
      .innerJoin('template', 'template.id', 'schedule.template_id')
      .select(['template.id', 'template.name'])
      .where('schedule.project_id', '=', projectId)
      .where('schedule.repository_id', '=', repositoryId)
      .execute(),
  )
  return refs
}

export async function findInventoryRefs(
  db: Q,
  projectId: number,
  inventoryId: number,
): Promise<Refs> {
  const refs = emptyRefs()
  refs.templates = unique(
    await db
      .selectFrom('template')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('inventory_id', '=', inventoryId)
      .execute(),
  )
  return refs
}

export async function findEnvironmentRefs(
  db: Q,
  projectId: number,
  environmentId: number,
): Promise<Refs> {
  const refs = emptyRefs()
  refs.templates = unique(
    await db
      .selectFrom('template')
      .select(['id', 'name'])
      .where('project_id', '=', projectId)
      .where('environment_id', '=', environmentId)
      .execute(),
  )
  return refs
}

/** Refuses to delete an object that is still referenced, with the compatible error body. */
export function assertUnused(refs: Refs, what: string): void {
  if (hasRefs(refs)) {
    throw new BadRequestError(`${what} is in use by one or more templates`, { inUse: true })
  }
}
