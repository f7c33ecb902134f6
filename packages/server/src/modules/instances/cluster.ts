import type { TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'
import { BUS_PAYLOAD_LIMIT, type ClusterBus, type Db, type WriteScope } from '@flagman/db'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { ThrottleOutcome } from '../auth/login-throttle.js'
import type { QueueCluster, TaskControl } from '../tasks/task-queue.js'
import type { TaskEvents } from '../tasks/task-events.js'
import type { InstanceRegistry } from './instance-registry.js'

/** The channels instances talk on; each message names its sender, which ignores it. */
const CHANNEL = {
  joined: 'flagman_instance_joined',
  writes: 'flagman_writes',
  queue: 'flagman_queue',
  control: 'flagman_task_control',
  update: 'flagman_task_update',
  logs: 'flagman_task_logs',
  changed: 'flagman_changed',
  throttle: 'flagman_throttle',
} as const

/** What a throttle shares: its outcomes, and takes those of the other instances. */
export interface SharedThrottle {
  onOutcome(listener: (outcome: ThrottleOutcome, address: string, login: string) => void): void
  applyElsewhere(outcome: ThrottleOutcome, address: string, login: string): void
}

/** Kinds of stored settings each instance keeps loaded, announced when one changes them. */
export type ChangeTopic = 'schedules'

/** Key of the advisory lock a dispatch pass holds on PostgreSQL ("flag" in ASCII). */
const DISPATCH_LOCK = 0x666c6167

export interface ClusterDeps {
  db: Db
  bus: ClusterBus
  registry: InstanceRegistry
  log: FastifyBaseLogger
}

/**
 * What keeps several server instances on one PostgreSQL database in step, over the
 * database itself: dispatch passes take turns under an advisory lock (so project, template
 * and runner limits hold across the cluster); a queue change, a write (which ends reused
 * answers), a task's status and its log lines, and a stop or confirmation for a task another
 * instance runs travel by LISTEN/NOTIFY. While an instance is alone, nothing is sent.
 * On SQLite and MariaDB/MySQL, which serve one instance, the bus sends nothing.
 */
export class Cluster implements QueueCluster {
  private readonly pendingScopes = new Set<WriteScope>()
  private queuePending = false
  private readonly topicHandlers = new Map<ChangeTopic, (() => void)[]>()
  private readonly throttles = new Map<string, SharedThrottle>()

  constructor(private readonly deps: ClusterDeps) {}

  private get id(): string {
    return this.deps.registry.id
  }

  private send(channel: string, payload: string): void {
    this.deps.bus
      .publish(channel, payload)
      .catch((error) => this.deps.log.warn({ err: error }, 'Could not message the other instances'))
  }

  /** Listens to the others and announces this instance; call once it is registered. */
  async start(
    events: TaskEvents,
    queue: { rescanHere(): void; control(c: TaskControl): Promise<void> },
  ): Promise<void> {
    const { bus, registry, db } = this.deps
    const fromOther = (payload: string): string | null => {
      const space = payload.indexOf(' ')
      const from = space < 0 ? payload : payload.slice(0, space)
      return from === this.id ? null : payload.slice(space + 1)
    }
    await bus.subscribe(CHANNEL.joined, (payload) => registry.peerJoined(payload))
    await bus.subscribe(CHANNEL.writes, (payload) => {
      const scopes = fromOther(payload)
      if (scopes === null) return
      for (const scope of scopes.split(',')) db.writes.moveFromElsewhere(scope as WriteScope)
    })
    await bus.subscribe(CHANNEL.queue, (payload) => {
      if (fromOther(payload) !== null) queue.rescanHere()
    })
    await bus.subscribe(CHANNEL.control, (payload) => {
      const body = fromOther(payload)
      if (body === null) return
      queue
        .control(JSON.parse(body) as TaskControl)
        .catch((error) => this.deps.log.warn({ err: error }, 'Could not apply a task control'))
    })
    await bus.subscribe(CHANNEL.update, (payload) => {
      const body = fromOther(payload)
      if (body !== null) events.emit('relayedUpdate', JSON.parse(body) as TaskUpdateMessage)
    })
    await bus.subscribe(CHANNEL.logs, (payload) => {
      const body = fromOther(payload)
      if (body === null) return
      const rows = JSON.parse(body) as [number, number, string, string][]
      const messages: TaskLogMessage[] = rows.map(([task_id, project_id, time, output]) => ({
        type: 'log',
        task_id,
        project_id,
        time,
        output,
      }))
      events.emit('relayedLogs', messages)
    })
    await bus.subscribe(CHANNEL.changed, (payload) => {
      const topic = fromOther(payload) as ChangeTopic | null
      if (topic !== null) for (const handler of this.topicHandlers.get(topic) ?? []) handler()
    })
    await bus.subscribe(CHANNEL.throttle, (payload) => {
      const body = fromOther(payload)
      if (body === null) return
      const [name, outcome, address, login] = JSON.parse(body) as [
        string,
        ThrottleOutcome,
        string,
        string,
      ]
      this.throttles.get(name)?.applyElsewhere(outcome, address, login)
    })
    // Whatever was missed while the connection was down is read from the database again.
    bus.onReconnect(() => {
      db.writes.moveFromElsewhere('data')
      db.writes.moveFromElsewhere('logs')
      queue.rescanHere()
      for (const handlers of this.topicHandlers.values()) for (const handler of handlers) handler()
    })

    db.writes.onMove((scope) => {
      if (!registry.hasPeers) return
      this.pendingScopes.add(scope)
      if (this.pendingScopes.size === 1) {
        setImmediate(() => {
          const scopes = [...this.pendingScopes].join(',')
          this.pendingScopes.clear()
          this.send(CHANNEL.writes, `${this.id} ${scopes}`)
        })
      }
    })
    events.on('update', (message) => {
      if (registry.hasPeers) this.send(CHANNEL.update, `${this.id} ${JSON.stringify(message)}`)
    })
    events.on('logs', (messages) => {
      if (registry.hasPeers) this.sendLogs(messages)
    })

    this.send(CHANNEL.joined, this.id)
  }

  /** Log lines in messages the bus carries; a line longer than one is cut (stored whole). */
  private sendLogs(messages: TaskLogMessage[]): void {
    const prefix = `${this.id} `
    let batch: string[] = []
    let size = prefix.length + 2
    const flush = () => {
      if (batch.length > 0) this.send(CHANNEL.logs, `${prefix}[${batch.join(',')}]`)
      batch = []
      size = prefix.length + 2
    }
    for (const m of messages) {
      let row = JSON.stringify([m.task_id, m.project_id, m.time, m.output])
      if (Buffer.byteLength(row) > BUS_PAYLOAD_LIMIT - size) {
        flush()
        if (Buffer.byteLength(row) > BUS_PAYLOAD_LIMIT - size) {
          const room = Math.floor((BUS_PAYLOAD_LIMIT - size - 200) / 6)
          row = JSON.stringify([m.task_id, m.project_id, m.time, `${m.output.slice(0, room)}…`])
        }
      }
      batch.push(row)
      size += Buffer.byteLength(row) + 1
    }
    flush()
  }

  /**
   * Shares a sign-in throttle's outcomes with the throttles of the same name on the other
   * instances, so guesses spread over the cluster count together.
   */
  shareThrottle(name: string, throttle: SharedThrottle): void {
    this.throttles.set(name, throttle)
    throttle.onOutcome((outcome, address, login) => {
      if (this.deps.registry.hasPeers) {
        this.send(CHANNEL.throttle, `${this.id} ${JSON.stringify([name, outcome, address, login])}`)
      }
    })
  }

  /** Tells the other instances that stored settings of `topic` changed. */
  announce(topic: ChangeTopic): void {
    if (this.deps.registry.hasPeers) this.send(CHANNEL.changed, `${this.id} ${topic}`)
  }

  /** Calls `handler` when another instance changed stored settings of `topic`. */
  on(topic: ChangeTopic, handler: () => void): void {
    this.topicHandlers.set(topic, [...(this.topicHandlers.get(topic) ?? []), handler])
  }

  queueChanged(): void {
    if (!this.deps.registry.hasPeers || this.queuePending) return
    this.queuePending = true
    setImmediate(() => {
      this.queuePending = false
      this.send(CHANNEL.queue, this.id)
    })
  }

  async dispatching(pass: () => Promise<void>): Promise<void> {
    const { db } = this.deps
    if (db.dialect !== 'postgres') return pass()
    await db.kysely.connection().execute(async (connection) => {
      await sql`select pg_advisory_lock(${DISPATCH_LOCK})`.execute(connection)
      try {
        await pass()
      } finally {
        await sql`select pg_advisory_unlock(${DISPATCH_LOCK})`.execute(connection)
      }
    })
  }

  /**
   * Runs `work` unless another instance is running work of the same `key` now (then answers
   * false at once). Only PostgreSQL has other instances; elsewhere the work always runs.
   */
  async alone(key: number, work: () => Promise<void>): Promise<boolean> {
    const { db } = this.deps
    if (db.dialect !== 'postgres') {
      await work()
      return true
    }
    return db.kysely.connection().execute(async (connection) => {
      const got = await sql<{
        locked: boolean
      }>`select pg_try_advisory_lock(${key}) as locked`.execute(connection)
      if (!got.rows[0]?.locked) return false
      try {
        await work()
        return true
      } finally {
        await sql`select pg_advisory_unlock(${key})`.execute(connection)
      }
    })
  }

  async forward(instanceId: string, control: TaskControl): Promise<boolean> {
    const { db } = this.deps
    const known = await db.kysely
      .selectFrom('server_instance')
      .select('id')
      .where('id', '=', instanceId)
      .executeTakeFirst()
    if (!known) return false
    await this.deps.bus.publish(CHANNEL.control, `${this.id} ${JSON.stringify(control)}`)
    return true
  }
}
