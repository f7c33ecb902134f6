import type { Integration, IntegrationExtractValue, IntegrationMatcher } from '@flagman/contract'
import type {
  Database,
  Db,
  IntegrationDeliveryTable,
  IntegrationExtractValueTable,
  IntegrationMatcherTable,
  IntegrationTable,
} from '@flagman/db'
import { insertReturningId } from '@flagman/db'
import type { Insertable, Kysely, Selectable, Updateable } from 'kysely'

type Q = Kysely<Database>
type InsertCtx = { kysely: Q; dialect: Db['dialect'] }
export type IntegrationRow = Selectable<IntegrationTable>
export type DeliveryRow = Selectable<IntegrationDeliveryTable>
export type AliasRow = {
  id: number
  project_id: number
  integration_id: number | null
  alias: string
}

function parseParams(text: string | null): Record<string, unknown> | null {
  if (text === null || text === '') return null
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

export function toIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    name: row.name,
    project_id: row.project_id,
    template_id: row.template_id,
    auth_method: row.auth_method,
    auth_secret_id: row.auth_secret_id,
    auth_header: row.auth_header,
    searchable: row.searchable === 1,
    task_params: parseParams(row.task_params),
    debounce: row.debounce === 1,
  }
}

export function toMatcher(row: Selectable<IntegrationMatcherTable>): IntegrationMatcher {
  return {
    id: row.id,
    integration_id: row.integration_id,
    name: row.name,
    match_type: row.match_type,
    method: row.method,
    body_data_type: row.body_data_type,
    key: row.key,
    value: row.value,
  }
}

export function toExtractValue(
  row: Selectable<IntegrationExtractValueTable>,
): IntegrationExtractValue {
  return {
    id: row.id,
    integration_id: row.integration_id,
    name: row.name,
    value_source: row.value_source,
    body_data_type: row.body_data_type,
    key: row.key,
    variable: row.variable,
  }
}

export async function listIntegrationRows(
  db: Q,
  projectId: number,
  direction: 'asc' | 'desc',
): Promise<IntegrationRow[]> {
  return db
    .selectFrom('integration')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('name', direction)
    .orderBy('id', direction)
    .execute()
}

export async function findIntegrationRow(
  db: Q,
  projectId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  return db
    .selectFrom('integration')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function findIntegrationById(db: Q, id: number): Promise<IntegrationRow | undefined> {
  return db.selectFrom('integration').selectAll().where('id', '=', id).executeTakeFirst()
}

/** Searchable integrations of a project, in id order. */
export async function searchableIntegrations(db: Q, projectId: number): Promise<IntegrationRow[]> {
  return db
    .selectFrom('integration')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('searchable', '=', 1)
    .orderBy('id')
    .execute()
}

export async function insertIntegration(
  ctx: InsertCtx,
  values: Insertable<IntegrationTable>,
): Promise<number> {
  return insertReturningId(ctx, 'integration', values)
}

export async function updateIntegrationRow(
  db: Q,
  id: number,
  values: Updateable<IntegrationTable>,
): Promise<void> {
  await db.updateTable('integration').set(values).where('id', '=', id).execute()
}

/** Removes an integration with its matchers, extracted values and aliases. */
export async function deleteIntegrationRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('integration_matcher').where('integration_id', '=', id).execute()
  await db.deleteFrom('integration_extract_value').where('integration_id', '=', id).execute()
  await db.deleteFrom('integration_alias').where('integration_id', '=', id).execute()
  await db.deleteFrom('integration_delivery').where('integration_id', '=', id).execute()
  await db.deleteFrom('integration').where('id', '=', id).execute()
}

export async function findKeyRow(db: Q, projectId: number, id: number) {
  return db
    .selectFrom('access_key')
    .select(['id', 'type', 'secret', 'environment_id'])
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function templateExists(db: Q, projectId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('template')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row !== undefined
}

// Matchers and extracted values: rows an integration owns, handled alike

/** The tables of the rows an integration owns and edits one by one. */
export type PartTable = 'integration_matcher' | 'integration_extract_value'
/** A stored matcher or extracted value, with the fields both have. */
export type PartRow<T extends PartTable> = Selectable<Database[T]> & {
  id: number
  integration_id: number
  name: string
}

export async function listPartRows<T extends PartTable>(
  db: Q,
  table: T,
  integrationId: number,
): Promise<PartRow<T>[]> {
  const rows = await db
    .selectFrom(table as PartTable)
    .selectAll()
    .where('integration_id', '=', integrationId)
    .orderBy('id')
    .execute()
  return rows as PartRow<T>[]
}

export async function findPartRow<T extends PartTable>(
  db: Q,
  table: T,
  integrationId: number,
  id: number,
): Promise<PartRow<T> | undefined> {
  const row = await db
    .selectFrom(table as PartTable)
    .selectAll()
    .where('integration_id', '=', integrationId)
    .where('id', '=', id)
    .executeTakeFirst()
  return row as PartRow<T> | undefined
}

export async function insertPart<T extends PartTable>(
  ctx: InsertCtx,
  table: T,
  values: Insertable<Database[T]>,
): Promise<number> {
  return insertReturningId(ctx, table, values)
}

export async function updatePartRow<T extends PartTable>(
  db: Q,
  table: T,
  id: number,
  values: Updateable<Database[T]>,
): Promise<void> {
  await db
    .updateTable(table as PartTable)
    .set(values as Updateable<Database[PartTable]>)
    .where('id', '=', id)
    .execute()
}

export async function deletePartRow(db: Q, table: PartTable, id: number): Promise<void> {
  await db.deleteFrom(table).where('id', '=', id).execute()
}

export function listMatcherRows(db: Q, integrationId: number) {
  return listPartRows(db, 'integration_matcher', integrationId)
}

export function listValueRows(db: Q, integrationId: number) {
  return listPartRows(db, 'integration_extract_value', integrationId)
}

// Aliases

export async function listAliasRows(
  db: Q,
  projectId: number,
  integrationId: number | null,
): Promise<AliasRow[]> {
  let query = db.selectFrom('integration_alias').selectAll().where('project_id', '=', projectId)
  query =
    integrationId === null
      ? query.where('integration_id', 'is', null)
      : query.where('integration_id', '=', integrationId)
  return query.orderBy('id').execute()
}

export async function findAliasRow(
  db: Q,
  projectId: number,
  integrationId: number | null,
  id: number,
): Promise<AliasRow | undefined> {
  let query = db
    .selectFrom('integration_alias')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
  query =
    integrationId === null
      ? query.where('integration_id', 'is', null)
      : query.where('integration_id', '=', integrationId)
  return query.executeTakeFirst()
}

export async function findAliasByName(db: Q, alias: string): Promise<AliasRow | undefined> {
  return db
    .selectFrom('integration_alias')
    .selectAll()
    .where('alias', '=', alias)
    .executeTakeFirst()
}

export async function insertAlias(
  ctx: InsertCtx,
  projectId: number,
  integrationId: number | null,
  alias: string,
): Promise<number> {
  return insertReturningId(ctx, 'integration_alias', {
    project_id: projectId,
    integration_id: integrationId,
    alias,
  })
}

export async function deleteAliasRow(db: Q, id: number): Promise<void> {
  await db.deleteFrom('integration_alias').where('id', '=', id).execute()
}

// Deliveries

/** How many deliveries each integration keeps. */
export const KEPT_DELIVERIES = 100

export async function listDeliveryRows(db: Q, integrationId: number): Promise<DeliveryRow[]> {
  return db
    .selectFrom('integration_delivery')
    .selectAll()
    .where('integration_id', '=', integrationId)
    .orderBy('id', 'desc')
    .limit(KEPT_DELIVERIES)
    .execute()
}

/** Records a delivery and forgets those beyond the last KEPT_DELIVERIES. */
export async function insertDelivery(
  ctx: InsertCtx,
  values: Insertable<IntegrationDeliveryTable>,
): Promise<number> {
  const id = await insertReturningId(ctx, 'integration_delivery', values)
  const oldest = await ctx.kysely
    .selectFrom('integration_delivery')
    .select('id')
    .where('integration_id', '=', values.integration_id)
    .orderBy('id', 'desc')
    .offset(KEPT_DELIVERIES - 1)
    .limit(1)
    .executeTakeFirst()
  if (oldest) {
    await ctx.kysely
      .deleteFrom('integration_delivery')
      .where('integration_id', '=', values.integration_id)
      .where('id', '<', oldest.id)
      .execute()
  }
  return id
}

/** Whether a task the integration started has not started running yet. */
export async function hasWaitingTask(db: Q, integrationId: number): Promise<boolean> {
  const row = await db
    .selectFrom('task')
    .select('id')
    .where('integration_id', '=', integrationId)
    .where('status', '=', 'waiting')
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** Whether the template has a task that has not started running yet. */
export async function templateHasWaitingTask(db: Q, templateId: number): Promise<boolean> {
  const row = await db
    .selectFrom('task')
    .select('id')
    .where('template_id', '=', templateId)
    .where('status', '=', 'waiting')
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** The encrypted secret of a project's key; decrypted by the caller only. */
export async function findKeySecret(
  db: Q,
  projectId: number,
  id: number,
): Promise<{ type: string; secret: string | null } | undefined> {
  return db
    .selectFrom('access_key')
    .select(['type', 'secret'])
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst()
}
