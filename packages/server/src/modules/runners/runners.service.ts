import type { CreatedRunner, CreateRunnerBody, Runner, UpdateRunnerBody } from '@flagman/contract'
import { generateRunnerKeyPairAsync } from '@flagman/executor'
import type { Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { z } from 'zod'
import type { Config } from '../../config.js'
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js'
import { hashRunnerToken, newRunnerToken } from './runner-tokens.js'
import {
  findRunnerRow,
  listRunnerRows,
  runningTasks,
  toRunners,
  type RunnerRow,
  type RunnerScope,
} from './runners.repository.js'

type CreateInput = z.output<typeof CreateRunnerBody>
type UpdateInput = z.output<typeof UpdateRunnerBody>

/** What the runner console needs of the task queue. */
export interface RunnerQueue {
  /** Waiting tasks may now go to a runner that was created, changed or switched on. */
  rescan(): void
  /** The runner is gone: its unstarted tasks go back to the queue. */
  runnerRemoved(runnerId: number): Promise<void>
}

function timeout(config: Config): number {
  return config.runnerTimeoutSeconds
}

async function requireRow(db: Db, scope: RunnerScope, id: number): Promise<RunnerRow> {
  const row = await findRunnerRow(db.kysely, scope, id)
  if (!row) throw new NotFoundError('Runner')
  return row
}

/** The compatible API insists that ids repeated in the body match the URL. */
function checkBodyIds(input: CreateInput, scope: RunnerScope, id?: number): void {
  const projectId = input.project_id ?? null
  if (scope === null && projectId !== null) {
    throw new BadRequestError('A global runner has no project; create it in the project instead')
  }
  if (scope !== null && projectId !== null && projectId !== scope) {
    throw new BadRequestError('Project ID in body and URL must be the same')
  }
  if (id !== undefined && typeof input.id === 'number' && input.id !== id) {
    throw new BadRequestError('Runner ID in body and URL must be the same')
  }
}

function columns(input: CreateInput) {
  return {
    name: input.name,
    webhook: input.webhook === '' ? null : input.webhook,
    max_parallel_tasks: input.max_parallel_tasks,
    active: flag(input.active),
    tag: input.tag,
  }
}

export async function listRunners(db: Db, config: Config, scope: RunnerScope): Promise<Runner[]> {
  return toRunners(db.kysely, await listRunnerRows(db.kysely, scope), timeout(config))
}

export async function getRunner(
  db: Db,
  config: Config,
  scope: RunnerScope,
  id: number,
): Promise<Runner> {
  const [runner] = await toRunners(db.kysely, [await requireRow(db, scope, id)], timeout(config))
  if (!runner) throw new NotFoundError('Runner')
  return runner
}

/**
 * Creates a runner with a fresh token and key pair. Only the token's hash and the public
 * half are kept: the answer is the one time the token and the private key are shown.
 */
export async function createRunner(
  db: Db,
  config: Config,
  queue: RunnerQueue,
  scope: RunnerScope,
  input: CreateInput,
): Promise<CreatedRunner> {
  checkBodyIds(input, scope)
  const token = newRunnerToken()
  const keys = await generateRunnerKeyPairAsync()
  const id = await insertReturningId(db, 'runner', {
    ...columns(input),
    project_id: scope,
    token_hash: hashRunnerToken(token),
    public_key: keys.publicKeyPem,
    created: nowIso(),
    touched: null,
  })
  queue.rescan()
  const runner = await getRunner(db, config, scope, id)
  return { ...runner, token, private_key: keys.privateKeyPem }
}

/** Replaces the runner's settings; tags and slots may change while it works. */
export async function updateRunner(
  db: Db,
  queue: RunnerQueue,
  scope: RunnerScope,
  id: number,
  input: UpdateInput,
): Promise<void> {
  await requireRow(db, scope, id)
  checkBodyIds(input, scope, id)
  await db.kysely.updateTable('runner').set(columns(input)).where('id', '=', id).execute()
  queue.rescan()
}

export async function setRunnerActive(
  db: Db,
  queue: RunnerQueue,
  scope: RunnerScope,
  id: number,
  active: boolean,
): Promise<void> {
  await requireRow(db, scope, id)
  await db.kysely
    .updateTable('runner')
    .set({ active: flag(active) })
    .where('id', '=', id)
    .execute()
  queue.rescan()
}

/** Deletes a runner that holds no task; one that does is refused with the list of them. */
export async function deleteRunner(
  db: Db,
  queue: RunnerQueue,
  scope: RunnerScope,
  id: number,
): Promise<void> {
  await requireRow(db, scope, id)
  const tasks = (await runningTasks(db.kysely, [id])).get(id) ?? []
  if (tasks.length > 0) {
    const list = tasks.map((t) => `#${t.task_id}`).join(', ')
    throw new ConflictError(`Runner #${id} has running tasks: ${list}. Stop them first.`)
  }
  await db.kysely.deleteFrom('runner').where('id', '=', id).execute()
  // A task assigned in the meantime goes back to the queue.
  await queue.runnerRemoved(id)
}
