import type {
  CreateExtractValueBody,
  CreateIntegrationBody,
  CreateMatcherBody,
  Integration,
  IntegrationAlias,
  IntegrationDelivery,
  IntegrationExtractValue,
  IntegrationMatcher,
  IntegrationPartRefs,
  IntegrationRefs,
  UpdateExtractValueBody,
  UpdateIntegrationBody,
  UpdateMatcherBody,
} from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { flag } from '@flagman/db'
import type { Insertable, Kysely, Updateable } from 'kysely'
import type { z } from 'zod'
import type { Config } from '../../config.js'
import { randomLowerAlnum } from '../../lib/secrets.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertSameIds, sortDirection } from '../project-scope.js'
import * as repo from './integrations.repository.js'

type Q = Kysely<Database>
type IntegrationInput =
  z.output<typeof CreateIntegrationBody> | z.output<typeof UpdateIntegrationBody>
type MatcherInput = z.output<typeof CreateMatcherBody> | z.output<typeof UpdateMatcherBody>
type CreateValueInput = z.output<typeof CreateExtractValueBody>
type UpdateValueInput = z.output<typeof UpdateExtractValueBody>

async function requireIntegration(db: Q, projectId: number, id: number) {
  const row = await repo.findIntegrationRow(db, projectId, id)
  if (!row) throw new NotFoundError('Integration')
  return row
}

/** The template must be one of the project's; the secret a login_password key of it. */
async function checkReferences(db: Q, projectId: number, input: IntegrationInput): Promise<void> {
  if (!(await repo.templateExists(db, projectId, input.template_id))) {
    throw new NotFoundError('Template')
  }
  if (input.auth_secret_id !== null && input.auth_secret_id !== undefined) {
    const key = await repo.findKeyRow(db, projectId, input.auth_secret_id)
    if (!key || key.environment_id !== null) throw new NotFoundError('Access key')
    if (key.type !== 'login_password') {
      throw new BadRequestError('auth_secret_id must be a key of type login_password')
    }
  }
}

function integrationValues(input: IntegrationInput) {
  return {
    name: input.name,
    template_id: input.template_id,
    auth_method: input.auth_method,
    auth_secret_id: input.auth_secret_id ?? null,
    auth_header: input.auth_header,
    searchable: flag(input.searchable),
    task_params: input.task_params ? JSON.stringify(input.task_params) : null,
    debounce: flag(input.debounce),
  }
}

export async function listIntegrations(
  db: Db,
  projectId: number,
  order: string | undefined,
): Promise<Integration[]> {
  const rows = await repo.listIntegrationRows(db.kysely, projectId, sortDirection(order))
  return rows.map(repo.toIntegration)
}

export async function getIntegration(db: Db, projectId: number, id: number) {
  return repo.toIntegration(await requireIntegration(db.kysely, projectId, id))
}

export async function createIntegration(
  db: Db,
  actor: Actor,
  projectId: number,
  input: z.output<typeof CreateIntegrationBody>,
): Promise<Integration> {
  assertSameIds(input, { projectId }, 'Integration')
  return db.kysely.transaction().execute(async (trx) => {
    await checkReferences(trx, projectId, input)
    const id = await repo.insertIntegration(
      { kysely: trx, dialect: db.dialect },
      { project_id: projectId, ...integrationValues(input) },
    )
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      integrationId: id,
      objectType: 'integration',
      objectId: id,
      description: `Integration ${input.name} created`,
    })
    return repo.toIntegration(await requireIntegration(trx, projectId, id))
  })
}

export async function updateIntegration(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: z.output<typeof UpdateIntegrationBody>,
): Promise<void> {
  assertSameIds(input, { projectId, id }, 'Integration')
  await db.kysely.transaction().execute(async (trx) => {
    await requireIntegration(trx, projectId, id)
    await checkReferences(trx, projectId, input)
    await repo.updateIntegrationRow(trx, id, integrationValues(input))
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      integrationId: id,
      objectType: 'integration',
      objectId: id,
      description: `Integration ${input.name} updated`,
    })
  })
}

export async function deleteIntegration(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const row = await requireIntegration(trx, projectId, id)
    await repo.deleteIntegrationRow(trx, id)
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'integration',
      objectId: id,
      description: `Integration ${row.name} deleted`,
    })
  })
}

/** Nothing refers to an integration; the compatible API answers with this placeholder. */
export async function integrationRefs(
  db: Db,
  projectId: number,
  id: number,
): Promise<IntegrationRefs> {
  await requireIntegration(db.kysely, projectId, id)
  return { matchers: null, values: null }
}

export async function listDeliveries(
  db: Db,
  projectId: number,
  id: number,
): Promise<IntegrationDelivery[]> {
  await requireIntegration(db.kysely, projectId, id)
  const rows = await repo.listDeliveryRows(db.kysely, id)
  return rows.map((row) => ({
    id: row.id,
    integration_id: row.integration_id,
    created: row.created,
    source: row.source,
    result: row.result,
    task_id: row.task_id,
  }))
}

// Matchers and extracted values

/** How one kind of row an integration owns is stored, answered and named in events. */
interface PartKind<T extends repo.PartTable, Out> {
  table: T
  /** What a missing one is called in a 404. */
  label: string
  objectType: 'integrationmatcher' | 'integrationextractvalue'
  /** Start of the event description, before the row's name. */
  eventName: string
  toApi(row: repo.PartRow<T>): Out
}

const MATCHERS: PartKind<'integration_matcher', IntegrationMatcher> = {
  table: 'integration_matcher',
  label: 'Matcher',
  objectType: 'integrationmatcher',
  eventName: 'Integration matcher',
  toApi: repo.toMatcher,
}

const VALUES: PartKind<'integration_extract_value', IntegrationExtractValue> = {
  table: 'integration_extract_value',
  label: 'Extracted value',
  objectType: 'integrationextractvalue',
  eventName: 'Integration extracted value',
  toApi: repo.toExtractValue,
}

async function requirePart<T extends repo.PartTable, Out>(
  db: Q,
  kind: PartKind<T, Out>,
  integrationId: number,
  id: number,
): Promise<repo.PartRow<T>> {
  const row = await repo.findPartRow(db, kind.table, integrationId, id)
  if (!row) throw new NotFoundError(kind.label)
  return row
}

async function partEvent(
  db: Q,
  kind: Pick<PartKind<repo.PartTable, unknown>, 'objectType' | 'eventName'>,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
  description: string,
): Promise<void> {
  await insertEvent(db, {
    projectId,
    userId: actor.id,
    integrationId,
    objectType: kind.objectType,
    objectId: id,
    description: `${kind.eventName} ${description}`,
  })
}

async function listParts<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  projectId: number,
  integrationId: number,
): Promise<Out[]> {
  await requireIntegration(db.kysely, projectId, integrationId)
  return (await repo.listPartRows(db.kysely, kind.table, integrationId)).map((row) =>
    kind.toApi(row),
  )
}

async function getPart<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<Out> {
  await requireIntegration(db.kysely, projectId, integrationId)
  return kind.toApi(await requirePart(db.kysely, kind, integrationId, id))
}

async function createPart<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  actor: Actor,
  projectId: number,
  integrationId: number,
  values: Insertable<Database[T]> & { name: string },
): Promise<Out> {
  return db.kysely.transaction().execute(async (trx) => {
    await requireIntegration(trx, projectId, integrationId)
    const id = await repo.insertPart({ kysely: trx, dialect: db.dialect }, kind.table, values)
    await partEvent(trx, kind, actor, projectId, integrationId, id, `${values.name} created`)
    return kind.toApi(await requirePart(trx, kind, integrationId, id))
  })
}

/**
 * Replaces a stored row's fields with those `merge` returns for it (after its own checks),
 * in one transaction with the event.
 */
async function updatePart<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
  merge: (stored: repo.PartRow<T>) => Updateable<Database[T]> & { name: string },
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await requireIntegration(trx, projectId, integrationId)
    const values = merge(await requirePart(trx, kind, integrationId, id))
    await repo.updatePartRow(trx, kind.table, id, values)
    await partEvent(trx, kind, actor, projectId, integrationId, id, `${values.name} updated`)
  })
}

async function deletePart<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await requireIntegration(trx, projectId, integrationId)
    const row = await requirePart(trx, kind, integrationId, id)
    await repo.deletePartRow(trx, kind.table, id)
    await partEvent(trx, kind, actor, projectId, integrationId, id, `${row.name} deleted`)
  })
}

/** Nothing refers to a matcher or a value; the compatible API answers with this. */
async function partRefs<T extends repo.PartTable, Out>(
  db: Db,
  kind: PartKind<T, Out>,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<IntegrationPartRefs> {
  await requireIntegration(db.kysely, projectId, integrationId)
  await requirePart(db.kysely, kind, integrationId, id)
  return { integrations: [] }
}

function assertSameIntegration(input: { integration_id?: number | undefined }, id: number) {
  if (input.integration_id !== undefined && input.integration_id !== id) {
    throw new BadRequestError('Extractor ID in body and URL must be the same')
  }
}

// Matchers

/** Rules beyond single fields, worded as the compatible API words them. */
function checkMatcher(input: MatcherInput): void {
  if (input.match_type === 'header' && input.key.trim() === '')
    throw new BadRequestError('No key set')
  if (input.match_type === 'body') {
    if (input.body_data_type === '') {
      throw new BadRequestError('body_data_type must be "json" or "string" for a body matcher')
    }
    if (input.body_data_type === 'json' && input.key.trim() === '') {
      throw new BadRequestError('No key set')
    }
  }
  if (input.value === '') throw new BadRequestError('No value set')
}

/**
 * Stored as sent: a field the match type does not read (the body data type of a header
 * matcher, the key of a whole-body matcher) is ignored by the receiver, not cleared.
 */
function matcherValues(input: MatcherInput) {
  return {
    name: input.name,
    match_type: input.match_type,
    method: input.method,
    body_data_type: input.body_data_type,
    key: input.key,
    value: input.value,
  }
}

export async function listMatchers(db: Db, projectId: number, integrationId: number) {
  return listParts(db, MATCHERS, projectId, integrationId)
}

export async function getMatcher(db: Db, projectId: number, integrationId: number, id: number) {
  return getPart(db, MATCHERS, projectId, integrationId, id)
}

export async function createMatcher(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  input: z.output<typeof CreateMatcherBody>,
): Promise<IntegrationMatcher> {
  assertSameIntegration(input, integrationId)
  checkMatcher(input)
  return createPart(db, MATCHERS, actor, projectId, integrationId, {
    integration_id: integrationId,
    ...matcherValues(input),
  })
}

export async function updateMatcher(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
  input: z.output<typeof UpdateMatcherBody>,
): Promise<void> {
  assertSameIntegration(input, integrationId)
  if (input.id !== undefined && input.id !== id) {
    throw new BadRequestError('Matcher ID in body and URL must be the same')
  }
  checkMatcher(input)
  await updatePart(db, MATCHERS, actor, projectId, integrationId, id, () => matcherValues(input))
}

export async function deleteMatcher(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<void> {
  await deletePart(db, MATCHERS, actor, projectId, integrationId, id)
}

export async function matcherRefs(
  db: Db,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<IntegrationPartRefs> {
  return partRefs(db, MATCHERS, projectId, integrationId, id)
}

// Extracted values

interface ValueFields {
  name: string
  value_source: string
  body_data_type: string
  key: string
  variable: string
}

/** Rules beyond single fields, worded as the compatible API words them. */
function checkValue(value: ValueFields): void {
  if (value.value_source === '') throw new BadRequestError('No Value Source defined')
  if (value.value_source === 'body') {
    if (value.body_data_type === '') {
      throw new BadRequestError('Value Source but no body data type set')
    }
    if (value.body_data_type === 'json' && value.key === '') {
      throw new BadRequestError('No Key set for JSON Body Data extraction.')
    }
  }
  if (value.value_source === 'header' && value.key === '') {
    throw new BadRequestError('Value Source set but no Key set')
  }
  if (value.variable === '') throw new BadRequestError('variable can not be empty')
}

/** Stored as sent, like matchers: fields the value source does not read are kept. */
function valueFields(value: ValueFields): ValueFields {
  return {
    name: value.name,
    value_source: value.value_source,
    body_data_type: value.body_data_type,
    key: value.key,
    variable: value.variable,
  }
}

export async function listValues(db: Db, projectId: number, integrationId: number) {
  return listParts(db, VALUES, projectId, integrationId)
}

export async function getValue(db: Db, projectId: number, integrationId: number, id: number) {
  return getPart(db, VALUES, projectId, integrationId, id)
}

export async function createValue(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  input: CreateValueInput,
): Promise<IntegrationExtractValue> {
  assertSameIntegration(input, integrationId)
  checkValue(input)
  return createPart(db, VALUES, actor, projectId, integrationId, {
    integration_id: integrationId,
    ...valueFields(input),
  })
}

export async function updateValue(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
  input: UpdateValueInput,
): Promise<void> {
  if (input.id !== id) throw new BadRequestError('Value ID in body and URL must be the same')
  assertSameIntegration(input, integrationId)
  await updatePart(db, VALUES, actor, projectId, integrationId, id, (stored) => {
    const merged: ValueFields = {
      name: input.name ?? stored.name,
      value_source: input.value_source ?? stored.value_source,
      body_data_type: input.body_data_type ?? stored.body_data_type,
      key: input.key ?? stored.key,
      variable: input.variable ?? stored.variable,
    }
    checkValue(merged)
    return valueFields(merged)
  })
}

export async function deleteValue(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<void> {
  await deletePart(db, VALUES, actor, projectId, integrationId, id)
}

export async function valueRefs(
  db: Db,
  projectId: number,
  integrationId: number,
  id: number,
): Promise<IntegrationPartRefs> {
  return partRefs(db, VALUES, projectId, integrationId, id)
}

// Aliases

/** Public address of an alias: the console's host, or the local one when none is set. */
export function aliasUrl(config: Config, alias: string): string {
  const host = config.webHost || `http://localhost:${config.port}`
  return `${host}/api/integrations/${alias}`
}

/** 16 random characters (about 82 bits). */
const newAlias = (): string => randomLowerAlnum(16)

function toAlias(config: Config, row: repo.AliasRow): IntegrationAlias {
  return { id: row.id, url: aliasUrl(config, row.alias) }
}

export async function listAliases(
  db: Db,
  config: Config,
  projectId: number,
  integrationId: number | null,
): Promise<IntegrationAlias[]> {
  if (integrationId !== null) await requireIntegration(db.kysely, projectId, integrationId)
  const rows = await repo.listAliasRows(db.kysely, projectId, integrationId)
  return rows.map((row) => toAlias(config, row))
}

export async function createAlias(
  db: Db,
  config: Config,
  actor: Actor,
  projectId: number,
  integrationId: number | null,
): Promise<IntegrationAlias> {
  return db.kysely.transaction().execute(async (trx) => {
    if (integrationId !== null) await requireIntegration(trx, projectId, integrationId)
    const alias = newAlias()
    const id = await repo.insertAlias(
      { kysely: trx, dialect: db.dialect },
      projectId,
      integrationId,
      alias,
    )
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      integrationId,
      objectType: 'integration',
      objectId: integrationId,
      description:
        integrationId === null
          ? 'Project integration alias created'
          : `Alias of integration ID ${integrationId} created`,
    })
    return { id, url: aliasUrl(config, alias) }
  })
}

export async function deleteAlias(
  db: Db,
  actor: Actor,
  projectId: number,
  integrationId: number | null,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    if (integrationId !== null) await requireIntegration(trx, projectId, integrationId)
    const row = await repo.findAliasRow(trx, projectId, integrationId, id)
    if (!row) throw new NotFoundError('Alias')
    await repo.deleteAliasRow(trx, id)
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      integrationId,
      objectType: 'integration',
      objectId: integrationId,
      description:
        integrationId === null
          ? 'Project integration alias deleted'
          : `Alias of integration ID ${integrationId} deleted`,
    })
  })
}
