import { randomUUID } from 'node:crypto'
import type { AlertChannel } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import type { AlertMetrics } from '../metrics/hooks.js'
import type { AlertConfig } from './alert.config.js'
import { CHANNEL_LABELS } from './alert-message.js'
import { deliver, SEND_TIMEOUT_MS, type Delivery, type SendOutcome } from './alert-senders.js'

/** Attempts per alert, and the wait after each failed one before the next. */
export const MAX_ATTEMPTS = 3
const RETRY_DELAYS_MS = [1_000, 5_000]

/**
 * A row still `sending` this long after its claim belongs to a process that died mid-send
 * (an attempt never takes longer than the send timeout): it is offered again.
 */
const STALE_CLAIM_MS = SEND_TIMEOUT_MS * 6

/** Rows one pass claims; a fuller outbox is worked through in several passes. */
const BATCH = 100

export interface NewAlert extends Delivery {
  taskId: number
  projectId: number
}

export interface AlertOutboxDeps {
  db: Db
  config: AlertConfig
  log: FastifyBaseLogger
  /** Writes a line into the task's log, as the server's other task lines are. */
  say(taskId: number, projectId: number, line: string): void
  /** Sends one alert; the real senders unless a test replaces them. */
  send?: typeof deliver
  /** Told the result of every attempt that was not cancelled. */
  metrics?: AlertMetrics
}

interface Row {
  id: number
  task_id: number
  project_id: number
  channel: string
  recipient: string | null
  payload: string
  attempts: number
}

/**
 * Sends alerts in the background from the `alert_outbox` table, so that a task's end never
 * waits for a mail server or a chat service. It wakes when alerts are added; while idle it
 * runs no timer, and while a retry waits, one timer for the earliest. A row is claimed by a
 * compare-and-set from `pending` to `sending`, so servers sharing the database never send one
 * alert twice. Each attempt writes its lines into the task's log.
 */
export class AlertOutbox {
  private readonly node = randomUUID().slice(0, 32)
  private readonly send: typeof deliver
  private stopped = true
  private passing: Promise<void> | null = null
  private again = false
  private timer: NodeJS.Timeout | null = null
  private readonly inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>()

  constructor(private readonly deps: AlertOutboxDeps) {
    this.send = deps.send ?? deliver
  }

  /** Stores the alerts and wakes the sender; never throws into the caller's work. */
  async add(alerts: NewAlert[]): Promise<void> {
    if (alerts.length === 0) return
    const now = nowIso()
    await this.deps.db.kysely
      .insertInto('alert_outbox')
      .values(
        alerts.map((a) => ({
          task_id: a.taskId,
          project_id: a.projectId,
          channel: a.channel,
          recipient: a.recipient,
          payload: a.payload,
          status: 'pending',
          attempts: 0,
          next_attempt_at: now,
          created: now,
        })),
      )
      .execute()
    this.wake()
  }

  /** Starts sending: what an earlier process left pending goes out now. */
  start(): void {
    this.stopped = false
    this.wake()
  }

  /**
   * Stops sending. Attempts under way are cancelled and their rows offered again (the
   * attempt does not count), for this server's next start or another server.
   */
  async stop(): Promise<void> {
    this.stopped = true
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    for (const { abort } of this.inFlight.values()) abort.abort()
    await this.passing
    await Promise.all([...this.inFlight.values()].map((f) => f.done))
  }

  /** Runs a pass now, or right after the one under way. */
  wake(): void {
    if (this.stopped) return
    if (this.passing) {
      this.again = true
      return
    }
    this.passing = (async () => {
      do {
        this.again = false
        try {
          await this.pass()
        } catch (error) {
          this.deps.log.error({ err: error }, 'Could not send alerts')
        }
      } while (this.again && !this.stopped)
      try {
        await this.armTimer()
      } catch (error) {
        this.deps.log.error({ err: error }, 'Could not schedule alerts')
      }
    })().finally(() => {
      this.passing = null
      if (this.again) this.wake()
    })
  }

  private async pass(): Promise<void> {
    const db = this.deps.db.kysely
    const now = nowIso()
    const cutoff = new Date(Date.now() - STALE_CLAIM_MS).toISOString()
    await db
      .updateTable('alert_outbox')
      .set({ status: 'pending', claimed_by: null, claimed_at: null })
      .where('status', '=', 'sending')
      .where('claimed_at', '<', cutoff)
      .execute()
    const rows: Row[] = await db
      .selectFrom('alert_outbox')
      .select(['id', 'task_id', 'project_id', 'channel', 'recipient', 'payload', 'attempts'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('id')
      .limit(BATCH)
      .execute()
    if (rows.length === BATCH) this.again = true
    for (const row of rows) {
      if (this.stopped) return
      if (this.inFlight.has(row.id)) continue
      if (!(await this.claim(row))) continue
      const abort = new AbortController()
      const done = this.attempt(row, abort.signal)
        .catch((error) => this.deps.log.error({ err: error }, 'Could not send an alert'))
        .finally(() => {
          this.inFlight.delete(row.id)
          // A retry may now be due sooner than the timer set before.
          this.wake()
        })
      this.inFlight.set(row.id, { abort, done })
    }
  }

  /** Takes the row for this process; false when another process (or pass) has it. */
  private async claim(row: Row): Promise<boolean> {
    const db = this.deps.db.kysely
    if (row.attempts >= MAX_ATTEMPTS) {
      // Left behind mid-send by a process that died after its last attempt.
      await db
        .updateTable('alert_outbox')
        .set({ status: 'failed' })
        .where('id', '=', row.id)
        .where('status', '=', 'pending')
        .execute()
      return false
    }
    const result = await db
      .updateTable('alert_outbox')
      .set({
        status: 'sending',
        claimed_by: this.node,
        claimed_at: nowIso(),
        attempts: row.attempts + 1,
      })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('attempts', '=', row.attempts)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  private async attempt(row: Row, signal: AbortSignal): Promise<void> {
    const channel = row.channel as AlertChannel
    const label = CHANNEL_LABELS[channel] ?? row.channel
    const say = (line: string) => this.deps.say(row.task_id, row.project_id, line)
    say(`Attempting to send ${label} alert`)
    let outcome: SendOutcome
    try {
      outcome = await this.send(
        this.deps.config,
        { channel, recipient: row.recipient, payload: row.payload },
        signal,
      )
    } catch {
      outcome = {
        ok: false,
        line: `Can't send ${label} alert! Error: request failed`,
        error: 'request failed',
      }
    }
    const db = this.deps.db.kysely
    const mine = db
      .updateTable('alert_outbox')
      .where('id', '=', row.id)
      .where('status', '=', 'sending')
      .where('claimed_by', '=', this.node)
    if (signal.aborted && !outcome.ok) {
      // Cancelled by a stop: offered again as if this attempt had not begun.
      await mine
        .set({ status: 'pending', attempts: row.attempts, claimed_by: null, claimed_at: null })
        .execute()
      return
    }
    say(outcome.line)
    this.deps.metrics?.alertDelivery(row.channel, outcome.ok ? 'sent' : 'failed')
    if (outcome.ok) {
      await mine.set({ status: 'sent', claimed_by: null, last_error: null }).execute()
      return
    }
    const attempts = row.attempts + 1
    const error = (outcome.error ?? '').slice(0, 255)
    if (attempts >= MAX_ATTEMPTS) {
      say(`Gave up sending ${label} alert after ${attempts} attempts`)
      await mine.set({ status: 'failed', claimed_by: null, last_error: error }).execute()
      return
    }
    const wait = RETRY_DELAYS_MS[attempts - 1] ?? RETRY_DELAYS_MS[RETRY_DELAYS_MS.length - 1]!
    await mine
      .set({
        status: 'pending',
        claimed_by: null,
        claimed_at: null,
        last_error: error,
        next_attempt_at: new Date(Date.now() + wait).toISOString(),
      })
      .execute()
  }

  /** One timer for the earliest retry still waiting; none while nothing waits. */
  private async armTimer(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (this.stopped) return
    const next = await this.deps.db.kysely
      .selectFrom('alert_outbox')
      .select((eb) => eb.fn.min<string>('next_attempt_at').as('due'))
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (!next?.due || this.stopped) return
    const delay = Math.max(0, Date.parse(next.due) - Date.now())
    this.timer = setTimeout(() => {
      this.timer = null
      this.wake()
    }, delay)
    this.timer.unref()
  }
}
