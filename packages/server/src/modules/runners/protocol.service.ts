import {
  describeIssues,
  RegisterRunnerBody,
  type RunnerPollAnswer,
  type RunnerPollQuery,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import { sealHybrid, sealPkcs1Chunks } from '@flagman/executor'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../../config.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import type { RunnerWork } from '../tasks/runner-work.js'
import { buildNewJobs } from './job-payload.js'
import { PollMemory } from './long-poll.js'
import { hashRunnerToken, newRunnerToken, normalizePublicKey, sameSecret } from './runner-tokens.js'
import type { RunnerRow } from './runners.repository.js'

export interface ProtocolContext {
  db: Db
  config: Config
  box: SecretBox
  work: RunnerWork & { rescan(): void }
  log: FastifyBaseLogger
  memory: PollMemory
}

const WEBHOOK = /^https?:\/\/[^\s]+$/i

/**
 * Self-registration with the server's registration token: only when one is configured, and
 * compared in constant time. Makes a global runner and answers its token, once.
 */
export async function registerRunner(ctx: ProtocolContext, raw: unknown): Promise<string> {
  const expected = ctx.config.runnerRegistrationToken
  const given =
    raw && typeof raw === 'object'
      ? (raw as { registration_token?: unknown }).registration_token
      : undefined
  if (expected === '' || typeof given !== 'string' || !sameSecret(given, expected)) {
    throw new BadRequestError('Invalid registration token')
  }
  const parsed = RegisterRunnerBody.safeParse(raw)
  if (!parsed.success) throw new BadRequestError(describeIssues(parsed.error.issues))
  const body = parsed.data
  let publicKey: string | null = null
  if (body.public_key) {
    publicKey = normalizePublicKey(body.public_key)
    if (publicKey === null) throw new BadRequestError('Invalid public key')
  }
  const webhook = body.webhook?.trim() ?? ''
  if (webhook !== '' && !WEBHOOK.test(webhook)) {
    throw new BadRequestError('webhook must be an http or https URL')
  }
  const token = newRunnerToken()
  const now = nowIso()
  const id = await insertReturningId(ctx.db, 'runner', {
    project_id: null,
    name: body.name ?? '',
    token_hash: hashRunnerToken(token),
    webhook: webhook === '' ? null : webhook,
    max_parallel_tasks: body.max_parallel_tasks ?? 0,
    public_key: publicKey,
    tag: body.tag ?? '',
    active: flag(true),
    created: now,
    touched: now,
  })
  if (!body.name) {
    await ctx.db.kysely
      .updateTable('runner')
      .set({ name: `Runner ${id}` })
      .where('id', '=', id)
      .execute()
  }
  ctx.work.rescan()
  return token
}

/** The runner's tags and slots as it was started with, when it says so. */
async function applyStartSettings(
  ctx: ProtocolContext,
  runner: RunnerRow,
  query: RunnerPollQuery,
): Promise<void> {
  const changes: { tag?: string; max_parallel_tasks?: number } = {}
  if (query.tags !== undefined && query.tags !== runner.tag) changes.tag = query.tags
  if (
    query.max_parallel_tasks !== undefined &&
    query.max_parallel_tasks !== runner.max_parallel_tasks
  ) {
    changes.max_parallel_tasks = query.max_parallel_tasks
  }
  if (Object.keys(changes).length === 0) return
  await ctx.db.kysely.updateTable('runner').set(changes).where('id', '=', runner.id).execute()
}

interface Snapshot {
  fingerprint: string
  answer: () => Promise<RunnerPollAnswer>
}

/** What the runner is to be told now; an inactive (or deleted) runner gets no new job. */
async function snapshot(ctx: ProtocolContext, runnerId: number): Promise<Snapshot> {
  const row = await ctx.db.kysely
    .selectFrom('runner')
    .select(['active'])
    .where('id', '=', runnerId)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Runner')
  const news = await ctx.work.runnerNews(runnerId)
  const starting = row.active ? news.starting : []
  return {
    fingerprint: PollMemory.fingerprint(
      news.current,
      starting.map((t) => t.id),
    ),
    answer: async () => ({
      CurrentJobs: news.current.map((j) => ({ id: j.id, status: j.status })),
      ...(await buildNewJobs({ db: ctx.db, box: ctx.box, work: ctx.work, log: ctx.log }, starting)),
    }),
  }
}

/**
 * The poll: counts as a heartbeat, then answers the runner's jobs. With `wait`, an answer
 * that would repeat the previous one is held until there is news or the wait is over (never
 * so long that the runner would count as lost meanwhile). Null when the runner went away.
 */
export async function pollRunner(
  ctx: ProtocolContext,
  runner: RunnerRow,
  query: RunnerPollQuery,
  signal: AbortSignal,
): Promise<RunnerPollAnswer | null> {
  await applyStartSettings(ctx, runner, query)
  const waitMs = Math.min((query.wait ?? 0) * 1000, (ctx.config.runnerTimeoutSeconds * 1000) / 2)
  // Listen before looking: news that comes between the look and the wait (the dispatch the
  // heartbeat below sets off, say) must not be missed.
  const listening = new AbortController()
  const stopListening = () => listening.abort()
  signal.addEventListener('abort', stopListening, { once: true })
  const news = waitMs > 0 ? ctx.work.waitForRunnerNews(runner.id, waitMs, listening.signal) : null
  try {
    await ctx.work.runnerSeen(runner.id)
    let now = await snapshot(ctx, runner.id)
    if (news && ctx.memory.repeats(runner.id, now.fingerprint)) {
      await news
      if (signal.aborted) return null
      await ctx.work.runnerSeen(runner.id)
      now = await snapshot(ctx, runner.id)
    }
    ctx.memory.remember(runner.id, now.fingerprint)
    return await now.answer()
  } finally {
    stopListening()
    signal.removeEventListener('abort', stopListening)
  }
}

/**
 * The answer as sent: encrypted to the runner's public key when it has one (the compatible
 * chunked PKCS#1 v1.5 format, or `hybrid` when asked), else plain JSON.
 */
export function sealAnswer(
  runner: RunnerRow,
  answer: RunnerPollAnswer,
  encryption: RunnerPollQuery['encryption'],
): Buffer | null {
  if (!runner.public_key) return null
  const json = JSON.stringify(answer)
  return encryption === 'hybrid'
    ? sealHybrid(json, runner.public_key)
    : sealPkcs1Chunks(json, runner.public_key)
}

/** A runner unregistering itself: its tasks are dealt with first, then it is gone. */
export async function unregisterRunner(ctx: ProtocolContext, runner: RunnerRow): Promise<void> {
  await ctx.work.runnerRemoved(runner.id)
  await ctx.db.kysely.deleteFrom('runner').where('id', '=', runner.id).execute()
  ctx.memory.forget(runner.id)
}
