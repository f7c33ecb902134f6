import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'
import type { Db } from '@flagman/db'
import { nowIso } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import {
  beat,
  insertInstance,
  listInstances,
  removeDead,
  removeInstance,
  type InstanceRow,
} from './instances.repository.js'
import { holdSingleInstanceLock, type SingleInstanceLock } from './single-instance-lock.js'

export interface InstanceRegistryDeps {
  db: Db
  log: FastifyBaseLogger
  version: string
  /** FLAGMAN_INSTANCE_TIMEOUT_SECONDS: another instance takes over within this time. */
  timeoutSeconds: number
  /** Called with the instances found dead and removed by this one: take over their tasks. */
  onLost(instances: InstanceRow[]): Promise<void>
  /** Called when this instance finds itself taken for dead: its tasks went to another. */
  onFenced(): Promise<void>
  /** The host name recorded for this instance; the machine's by default. */
  host?: string
}

/** An instance is dead after this share of the timeout without a heartbeat … */
const DEAD_SHARE = 2 / 3
/** … and the others look this often, so that its tasks are taken over within the timeout. */
const BEATS_PER_TIMEOUT = 6

/**
 * This server instance in the `server_instance` table: an id (what `task.claimed_by` names),
 * a heartbeat, and the watch over the others. On PostgreSQL any number of instances share
 * the database; one whose heartbeat stops is removed by exactly one of the others, which
 * ends or requeues its tasks as a restart would. On SQLite and MariaDB/MySQL a second
 * instance refuses to start.
 */
export class InstanceRegistry {
  readonly id = randomUUID()
  readonly host: string
  private timer: NodeJS.Timeout | null = null
  private lock: SingleInstanceLock | null = null
  private registeredAt: number | null = null
  private checking: Promise<void> | null = null
  private peers = 0

  constructor(private readonly deps: InstanceRegistryDeps) {
    this.host = deps.host ?? hostname()
  }

  get registered(): boolean {
    return this.registeredAt !== null
  }

  private get timeoutMs(): number {
    return this.deps.timeoutSeconds * 1000
  }

  /**
   * Takes this instance's place: refuses (throws, with a message for the operator) when the
   * database serves one instance and another holds it; removes what dead instances left.
   */
  async register(): Promise<void> {
    const { db } = this.deps
    if (db.dialect !== 'postgres') {
      this.lock = await holdSingleInstanceLock(db, (row) => this.isAlive(row))
    }
    // What dead instances left is recovered by the queue's start, as after a restart.
    await this.removeDeadInstances()
    await this.insertSelf()
    this.registeredAt = Date.now()
    const every = Math.max(500, Math.round(this.timeoutMs / BEATS_PER_TIMEOUT))
    this.timer = setInterval(() => void this.check(), every)
    this.timer.unref()
  }

  private insertSelf(): Promise<void> {
    return insertInstance(this.deps.db, {
      id: this.id,
      host: this.host,
      pid: process.pid,
      version: this.deps.version,
      started: nowIso(),
    })
  }

  /**
   * Whether this instance still holds its place, checked by a heartbeat now: false when
   * another took it for dead while it was held up (paused, swapped out). Then the caller must
   * not act on the time it slept through; the fencing is dealt with as a heartbeat would.
   */
  async holdsPlace(): Promise<boolean> {
    if (this.deps.db.dialect !== 'postgres' || !this.registered) return true
    if (await beat(this.deps.db, this.id)) return true
    void this.check()
    return false
  }

  /** Leaves the table (the tasks this instance ran have ended by now). */
  async deregister(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.checking
    if (this.registeredAt !== null) await removeInstance(this.deps.db, this.id)
    this.registeredAt = null
    await this.lock?.release()
    this.lock = null
  }

  /** One heartbeat and one look at the others; never two at once. */
  private check(): Promise<void> {
    this.checking ??= this.beatAndWatch()
      .catch((error) => this.deps.log.error({ err: error }, 'Could not check server instances'))
      .finally(() => (this.checking = null))
    return this.checking
  }

  private async beatAndWatch(): Promise<void> {
    const { db } = this.deps
    if (!(await beat(db, this.id))) {
      // Another instance took this one for dead and its tasks over; its jobs must not go on
      // writing to tasks that now belong to nobody. It comes back as a fresh member.
      this.deps.log.error(
        `This server instance (${this.id}) missed its heartbeats for too long and was taken ` +
          'for dead; its running tasks are stopped',
      )
      await this.deps.onFenced()
      await this.insertSelf()
    }
    // Called even when none died: a task may name an instance that is gone without a row
    // (one that removed a dead one and died before it finished taking over).
    await this.deps.onLost(await this.removeDeadInstances())
  }

  /** Removes the rows of dead instances; answers those this instance removed. */
  private async removeDeadInstances(): Promise<InstanceRow[]> {
    const { db } = this.deps
    const { now, rows } = await listInstances(db)
    const dead: InstanceRow[] = []
    let peers = 0
    for (const row of rows) {
      if (row.id === this.id) continue
      if (this.isAlive(row, now)) peers += 1
      else if (await removeDead(db, row)) dead.push(row)
    }
    this.peers = peers
    return dead
  }

  /** Whether other instances serve the database (as of the last look, or one announced itself). */
  get hasPeers(): boolean {
    return this.peers > 0
  }

  /** Another instance announced itself: it counts until the next look says otherwise. */
  peerJoined(id: string): void {
    if (id !== this.id) this.peers = Math.max(this.peers, 1)
  }

  /**
   * Whether another instance is alive: its heartbeat is recent, and it is not a process of
   * this host that no longer exists (a server restarted after a crash need not wait out
   * the timeout for its predecessor).
   */
  private isAlive(row: InstanceRow, now = Date.now()): boolean {
    if (row.id === this.id) return true
    if (row.host === this.host && (row.pid === process.pid || !processExists(row.pid))) {
      return false
    }
    return now - row.heartbeat < this.timeoutMs * DEAD_SHARE
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
