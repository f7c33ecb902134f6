import type { IncomingHttpHeaders } from 'node:http'
import { CreateTaskBody, type DeliveryResult } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import { decryptKeySecret } from '../../lib/key-secret.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { AppError } from '../../platform/errors.js'
import { checkExternalVariables, createTask, type TaskQueue } from '../tasks/index.js'
import * as repo from './integrations.repository.js'
import { authenticate, DeliveryBody, matches, readSource } from './webhook-rules.js'

export interface Delivery {
  alias: string
  headers: IncomingHttpHeaders
  body: Buffer
  /** Address the delivery came from. */
  source: string
}

export interface ReceiverDeps {
  db: Db
  queue: TaskQueue
  secrets: SecretBox
  log: FastifyBaseLogger
}

/** Task fields an integration's `task_params` may set; the rest are its own. */
const TASK_PARAM_FIELDS = Object.keys(CreateTaskBody.shape).filter(
  (field) => !['template_id', 'project_id', 'environment'].includes(field),
)

/** The password of the integration's login_password key, read for this check only. */
async function secretOf(deps: ReceiverDeps, integration: repo.IntegrationRow) {
  if (integration.auth_secret_id === null) return null
  const key = await repo.findKeySecret(
    deps.db.kysely,
    integration.project_id,
    integration.auth_secret_id,
  )
  if (!key || key.type !== 'login_password') return null
  const secret = decryptKeySecret(deps.secrets, key.secret)
  return secret?.type === 'login_password' ? secret.password : null
}

function environmentOf(
  params: Record<string, unknown> | null,
  extracted: Record<string, string>,
): string | undefined {
  let base: Record<string, unknown> = {}
  const given = params?.environment
  if (typeof given === 'string' && given.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(given)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
        base = parsed as Record<string, unknown>
      }
    } catch {
      // Not an object: the extracted values stand alone.
    }
  }
  const merged = { ...base, ...extracted }
  return Object.keys(merged).length ? JSON.stringify(merged) : undefined
}

async function record(
  deps: ReceiverDeps,
  integrationId: number,
  delivery: Delivery,
  result: DeliveryResult,
  taskId: number | null = null,
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await repo.insertDelivery(
      { kysely: trx, dialect: deps.db.dialect },
      {
        integration_id: integrationId,
        created: nowIso(),
        source: delivery.source.slice(0, 64),
        result,
        task_id: taskId,
      },
    )
  })
}

/** Deliveries to one integration are handled one after another, so debounce holds. */
const queues = new Map<number, Promise<void>>()

function serialised(integrationId: number, work: () => Promise<void>): Promise<void> {
  const previous = queues.get(integrationId) ?? Promise.resolve()
  const next = previous.then(work, work)
  const settled = next.catch(() => undefined)
  queues.set(integrationId, settled)
  void settled.then(() => {
    if (queues.get(integrationId) === settled) queues.delete(integrationId)
  })
  return next
}

/** Runs one integration's template for a delivery that reached it. */
async function startTask(
  deps: ReceiverDeps,
  integration: repo.IntegrationRow,
  delivery: Delivery,
  body: DeliveryBody,
): Promise<void> {
  if (integration.debounce === 1) {
    if (await repo.hasWaitingTask(deps.db.kysely, integration.id)) {
      return record(deps, integration.id, delivery, 'skipped_duplicate')
    }
    if (await repo.templateHasWaitingTask(deps.db.kysely, integration.template_id)) {
      return record(deps, integration.id, delivery, 'template_busy')
    }
  }
  const extracted: Record<string, string> = {}
  for (const value of await repo.listValueRows(deps.db.kysely, integration.id)) {
    if (value.variable === '') continue
    const text = readSource(
      { source: value.value_source, bodyDataType: value.body_data_type, key: value.key },
      delivery.headers,
      body,
    )
    if (text !== undefined) extracted[value.variable] = text
  }
  const params = repo.toIntegration(integration).task_params
  const input: Record<string, unknown> = {}
  for (const field of TASK_PARAM_FIELDS) {
    if (params && params[field] !== undefined) input[field] = params[field]
  }
  input.template_id = integration.template_id
  const environment = environmentOf(params, extracted)
  if (environment !== undefined) input.environment = environment
  const parsed = CreateTaskBody.safeParse(input)
  if (!parsed.success) {
    deps.log.warn({ integrationId: integration.id }, 'The integration has invalid task_params')
    return record(deps, integration.id, delivery, 'task_refused')
  }
  try {
    // The values come from the sender, not from the people who set the integration up.
    const template = await deps.db.kysely
      .selectFrom('template')
      .select('app')
      .where('id', '=', integration.template_id)
      .executeTakeFirst()
    checkExternalVariables(template?.app ?? '', extracted)
    const task = await createTask(deps.db, deps.queue, null, integration.project_id, parsed.data, {
      integrationId: integration.id,
    })
    await record(deps, integration.id, delivery, 'task_started', task.id)
  } catch (error) {
    if (!(error instanceof AppError)) throw error
    deps.log.warn(
      { integrationId: integration.id, status: error.status },
      `A webhook delivery could not start a task: ${error.message}`,
    )
    await record(deps, integration.id, delivery, 'task_refused')
  }
}

/**
 * Handles one delivery to an alias: finds the candidate integrations, authenticates the
 * delivery for each, applies matchers (project-level aliases only) and starts tasks.
 * Returns false when the alias does not exist.
 */
export async function receiveDelivery(deps: ReceiverDeps, delivery: Delivery): Promise<boolean> {
  const alias = await repo.findAliasByName(deps.db.kysely, delivery.alias)
  if (!alias) return false
  let candidates: repo.IntegrationRow[]
  if (alias.integration_id === null) {
    candidates = await repo.searchableIntegrations(deps.db.kysely, alias.project_id)
  } else {
    const one = await repo.findIntegrationRow(
      deps.db.kysely,
      alias.project_id,
      alias.integration_id,
    )
    // An integration reached through the project's aliases is not reached through its own.
    candidates = one && one.searchable !== 1 ? [one] : []
  }
  const body = new DeliveryBody(delivery.body)
  for (const integration of candidates) {
    const auth = {
      method: integration.auth_method,
      header: integration.auth_header,
      secret: await secretOf(deps, integration),
    }
    if (!authenticate(auth, delivery.headers, delivery.body)) {
      await record(deps, integration.id, delivery, 'authentication_failed')
      continue
    }
    if (alias.integration_id === null) {
      const matchers = await repo.listMatcherRows(deps.db.kysely, integration.id)
      const all =
        matchers.length > 0 &&
        matchers.every((m) =>
          matches(
            {
              source: m.match_type,
              bodyDataType: m.body_data_type,
              key: m.key,
              method: m.method,
              value: m.value,
            },
            delivery.headers,
            body,
          ),
        )
      if (!all) {
        await record(deps, integration.id, delivery, 'no_matcher_matched')
        continue
      }
    }
    await serialised(integration.id, () => startTask(deps, integration, delivery, body))
  }
  return true
}
