import type { Client } from 'pg'
import type { DbConfig } from '../dialect.js'

/** A channel name and a short text: what server instances tell one another. */
export type BusHandler = (payload: string) => void

/**
 * Messages between the server instances that share one database. On PostgreSQL they travel
 * with LISTEN/NOTIFY on the database itself (no other moving part); on SQLite and
 * MariaDB/MySQL, which serve one instance at a time, a message reaches this process's own
 * handlers only when it is sent with `loopback`, and nothing else.
 */
export interface ClusterBus {
  /** Sends a message on a channel to every instance, this one included. */
  publish(channel: string, payload: string): Promise<void>
  /** Calls `handler` with every message on the channel. */
  subscribe(channel: string, handler: BusHandler): Promise<void>
  /**
   * Calls `handler` after the bus lost its connection and has it again: messages sent
   * meanwhile were missed, so whatever relies on them should catch up from the database.
   */
  onReconnect(handler: () => void): void
  close(): Promise<void>
}

/** Longest payload PostgreSQL's NOTIFY accepts is 8,000 bytes; a margin for the channel. */
export const BUS_PAYLOAD_LIMIT = 7_900

/** The bus of a database that one instance serves alone: messages go nowhere. */
class SingleInstanceBus implements ClusterBus {
  async publish(): Promise<void> {}
  async subscribe(): Promise<void> {}
  onReconnect(): void {}
  async close(): Promise<void> {}
}

/**
 * LISTEN on a connection of its own (a pooled one would be handed to other queries), sent
 * with `pg_notify` from any connection. A lost connection is opened again after a pause
 * that grows to 5 seconds; the reconnect handlers then run.
 */
class PostgresBus implements ClusterBus {
  private client: Client | null = null
  private readonly handlers = new Map<string, BusHandler[]>()
  private readonly reconnectHandlers: (() => void)[] = []
  private closed = false
  private retryMs = 100
  private connecting: Promise<void> | null = null
  /** Messages under way: the last ones of a closing instance still leave. */
  private readonly sending = new Set<Promise<void>>()

  constructor(
    private readonly url: string,
    private readonly warn: (message: string) => void,
  ) {}

  async publish(channel: string, payload: string): Promise<void> {
    const sent = (async () => {
      const client = await this.connected()
      await client.query('SELECT pg_notify($1, $2)', [channel, payload])
    })()
    this.sending.add(sent)
    try {
      await sent
    } finally {
      this.sending.delete(sent)
    }
  }

  async subscribe(channel: string, handler: BusHandler): Promise<void> {
    const known = this.handlers.get(channel)
    if (known) {
      known.push(handler)
      return
    }
    this.handlers.set(channel, [handler])
    const client = await this.connected()
    await client.query(`LISTEN ${quoteIdentifier(channel)}`)
  }

  onReconnect(handler: () => void): void {
    this.reconnectHandlers.push(handler)
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.sending])
    this.closed = true
    const client = this.client
    this.client = null
    await client?.end().catch(() => {})
  }

  private async connected(): Promise<Client> {
    if (this.client) return this.client
    this.connecting ??= this.connect().finally(() => (this.connecting = null))
    await this.connecting
    if (!this.client) throw new Error('The database connection for instance messages is closed')
    return this.client
  }

  private async connect(): Promise<void> {
    const pg = await import('pg')
    const client = new pg.default.Client({ connectionString: this.url })
    client.on('notification', (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '')
    })
    client.on('error', () => this.lost(client))
    client.on('end', () => this.lost(client))
    await client.connect()
    for (const channel of this.handlers.keys()) {
      await client.query(`LISTEN ${quoteIdentifier(channel)}`)
    }
    if (this.closed) {
      await client.end()
      return
    }
    this.client = client
    this.retryMs = 100
  }

  private lost(client: Client): void {
    if (this.client !== client || this.closed) return
    this.client = null
    this.warn('Lost the database connection for messages between instances; reconnecting')
    const retry = () => {
      if (this.closed) return
      this.connected().then(
        () => {
          for (const handler of this.reconnectHandlers) handler()
        },
        () => {
          this.retryMs = Math.min(5_000, this.retryMs * 2)
          setTimeout(retry, this.retryMs).unref()
        },
      )
    }
    setTimeout(retry, this.retryMs).unref()
  }
}

function quoteIdentifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`
}

/** The bus for the configured database. */
export function createClusterBus(config: DbConfig, warn: (message: string) => void): ClusterBus {
  return config.dialect === 'postgres'
    ? new PostgresBus(config.location, warn)
    : new SingleInstanceBus()
}
