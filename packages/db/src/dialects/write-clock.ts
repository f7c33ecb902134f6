import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely'

/**
 * What a write changed: the task logs (their lines and the search index built from them), or
 * any other data. Kept apart because running tasks write log lines many times a second, and
 * answers that do not show logs need not be thrown away for them.
 */
export type WriteScope = 'data' | 'logs'

/** Tables whose writes only move the log clock. */
const LOG_TABLES = new Set([
  'task_output',
  'task_output_fts',
  'task_output_search',
  'task_output_search_progress',
])

/**
 * Tables whose writes move no clock: no answer is computed from them (the heartbeats of
 * server instances change every few seconds and would throw every kept answer away).
 */
const UNCLOCKED_TABLES = new Set(['server_instance'])

const READ_STATEMENT = /^\s*(?:select|explain|show|values)\b/i
const WITH_STATEMENT = /^\s*with\b/i
const WRITE_WORD = /\b(?:insert|update|delete|replace|merge)\b/i
const WRITE_TARGET =
  /^\s*(?:insert\s+(?:or\s+\w+\s+)?(?:ignore\s+)?into|replace\s+into|update|delete\s+from)\s+[`"]?(\w+)[`"]?/i

/**
 * Which clock a statement moves, from its SQL text: none for a read (or a write to a table no
 * answer reads), the log clock for a write
 * to a log table, the data clock for everything else (an unrecognised statement counts as a
 * data write, so that nothing is ever kept that might have changed).
 */
export function scopeOfStatement(sql: string): WriteScope | null {
  if (READ_STATEMENT.test(sql)) return null
  if (WITH_STATEMENT.test(sql) && !WRITE_WORD.test(sql)) return null
  const table = WRITE_TARGET.exec(sql)?.[1]?.toLowerCase()
  if (table !== undefined && UNCLOCKED_TABLES.has(table)) return null
  return table !== undefined && LOG_TABLES.has(table) ? 'logs' : 'data'
}

/**
 * Two counters that move after every write this process makes, one per scope: a statement
 * outside a transaction moves its clock when it has run, a transaction moves the clocks of
 * what it wrote once more when it has committed (or rolled back). An answer computed from the
 * database stays right for as long as the clocks it depends on read the same as when its
 * computation began: any write that could have changed it, committed before or during that
 * computation, has moved them by the time the answer is looked at again.
 */
export class WriteClock {
  #data = 0
  #logs = 0
  readonly #listeners: ((scope: WriteScope) => void)[] = []

  get data(): number {
    return this.#data
  }

  get logs(): number {
    return this.#logs
  }

  /** A write of this process: moves the clock and tells the listeners (other instances). */
  move(scope: WriteScope): void {
    this.moveFromElsewhere(scope)
    for (const listener of this.#listeners) listener(scope)
  }

  /** A write another server instance made to the same database: moves the clock only. */
  moveFromElsewhere(scope: WriteScope): void {
    if (scope === 'logs') this.#logs += 1
    else this.#data += 1
  }

  /** Calls `listener` after each write of this process. */
  onMove(listener: (scope: WriteScope) => void): void {
    this.#listeners.push(listener)
  }
}

/** A connection as Kysely sees it, moving the clock after each write it runs. */
class ClockedConnection implements DatabaseConnection {
  inTransaction = false
  /** Scopes written in the open transaction, moved again when it ends. */
  readonly written = new Set<WriteScope>()

  constructor(
    readonly inner: DatabaseConnection,
    private readonly clock: WriteClock,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const scope = scopeOfStatement(query.sql)
    if (scope === null) return this.inner.executeQuery<R>(query)
    try {
      return await this.inner.executeQuery<R>(query)
    } finally {
      if (this.inTransaction) this.written.add(scope)
      this.clock.move(scope)
    }
  }

  async *streamQuery<R>(
    query: CompiledQuery,
    chunkSize?: number,
  ): AsyncIterableIterator<QueryResult<R>> {
    const scope = scopeOfStatement(query.sql)
    try {
      yield* this.inner.streamQuery<R>(query, chunkSize)
    } finally {
      if (scope !== null) {
        if (this.inTransaction) this.written.add(scope)
        this.clock.move(scope)
      }
    }
  }

  ended(): void {
    for (const scope of this.written) this.clock.move(scope)
    this.written.clear()
    this.inTransaction = false
  }
}

/**
 * The driver with each connection wrapped. The driver's own calls get its own connection
 * back: some drivers keep private state on it.
 */
class ClockedDriver implements Driver {
  readonly #connections = new WeakMap<DatabaseConnection, ClockedConnection>()
  readonly savepoint?: Driver['savepoint']
  readonly rollbackToSavepoint?: Driver['rollbackToSavepoint']
  readonly releaseSavepoint?: Driver['releaseSavepoint']

  constructor(
    private readonly inner: Driver,
    private readonly clock: WriteClock,
  ) {
    const { savepoint, rollbackToSavepoint, releaseSavepoint } = inner
    if (savepoint)
      this.savepoint = (c, name, compile) => savepoint.call(inner, innerOf(c), name, compile)
    if (rollbackToSavepoint) {
      this.rollbackToSavepoint = (c, name, compile) =>
        rollbackToSavepoint.call(inner, innerOf(c), name, compile)
    }
    if (releaseSavepoint) {
      this.releaseSavepoint = (c, name, compile) =>
        releaseSavepoint.call(inner, innerOf(c), name, compile)
    }
  }

  init(): Promise<void> {
    return this.inner.init()
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection()
    let clocked = this.#connections.get(connection)
    if (clocked === undefined) {
      clocked = new ClockedConnection(connection, this.clock)
      this.#connections.set(connection, clocked)
    }
    return clocked
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    await this.inner.beginTransaction(innerOf(connection), settings)
    ;(connection as ClockedConnection).inTransaction = true
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(innerOf(connection))
    } finally {
      ;(connection as ClockedConnection).ended()
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(innerOf(connection))
    } finally {
      ;(connection as ClockedConnection).ended()
    }
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(innerOf(connection))
  }

  destroy(): Promise<void> {
    return this.inner.destroy()
  }
}

function innerOf(connection: DatabaseConnection): DatabaseConnection {
  return connection instanceof ClockedConnection ? connection.inner : connection
}

/** The dialect with every write it runs counted on `clock`. */
export function withWriteClock(dialect: Dialect, clock: WriteClock): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ClockedDriver(dialect.createDriver(), clock),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createIntrospector: (db) => dialect.createIntrospector(db),
  }
}
