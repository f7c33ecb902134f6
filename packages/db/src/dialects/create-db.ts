import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  Kysely,
  MysqlDialect,
  PostgresDialect,
  SqliteDialect,
  type Dialect as KyselyDialect,
} from 'kysely'
import type { Database } from '../database.js'
import type { DbConfig, Dialect } from '../dialect.js'
import { withNamedStatements } from './postgres-named-statements.js'
import { withStatementCache } from './sqlite-statement-cache.js'
import { WriteClock, withWriteClock } from './write-clock.js'

export interface Db {
  readonly kysely: Kysely<Database>
  readonly dialect: Dialect
  /** Moves after every write this process makes: what answers computed from the data rely on. */
  readonly writes: WriteClock
  destroy(): Promise<void>
  /** How the connection pool is used now, for metrics. */
  poolUse(): PoolUse
}

/** Connections of the pool: open ones, those of them idle, and callers waiting for one. */
export interface PoolUse {
  open: number
  idle: number
  waiting: number
  max: number
}

/** What opening a dialect gives: the dialect and a look at its pool. */
interface OpenedDialect {
  dialect: KyselyDialect
  poolUse: () => PoolUse
}

/** mysql2's pool keeps these lists without typing them. */
interface MysqlPoolLists {
  _allConnections?: { length: number }
  _freeConnections?: { length: number }
  _connectionQueue?: { length: number }
}

const INT8_OID = 20

export interface CreateDbOptions {
  /** Told about files that other users can read and that could not be made private. */
  warn?: (message: string) => void
}

const SHARED_BITS = 0o077
const STICKY_BIT = 0o1000

/**
 * Takes the group and other permission bits away from a file or folder of ours. Returns a
 * warning instead when that is not possible: the entry belongs to another user, or it is a
 * shared folder (sticky bit, like /tmp) whose permissions are not ours to change.
 */
export function restrictToOwner(path: string, what: string): string | null {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return null
  const stat = statSync(path)
  if ((stat.mode & SHARED_BITS) === 0) return null
  if (stat.uid !== process.getuid() || (stat.mode & STICKY_BIT) !== 0) {
    return (
      `${what} ${path} is open to other users of this machine, and it is not this server's ` +
      `to restrict (another user's, or a shared folder); restrict it with chmod go-rwx`
    )
  }
  chmodSync(path, stat.mode & 0o7700)
  return null
}

/**
 * Makes sure a folder for the server's private files exists and only its owner can enter it:
 * a new folder is created with mode 0700, an existing one of ours loses the group and other
 * bits. Returns a warning when the folder stays open to others.
 */
export function ensurePrivateFolder(path: string, what = 'The data folder'): string | null {
  mkdirSync(path, { recursive: true, mode: 0o700 })
  return restrictToOwner(path, what)
}

/**
 * Creates the SQLite file with mode 0600 before the driver opens it (SQLite gives its -wal
 * and -shm files the main file's permissions), and restricts an existing one and its
 * companion files to their owner.
 */
function prepareSqliteFiles(location: string, warn: (message: string) => void): void {
  const folder = dirname(location)
  if (!existsSync(folder)) mkdirSync(folder, { recursive: true, mode: 0o700 })
  closeSync(openSync(location, 'a', 0o600))
  for (const file of [location, `${location}-wal`, `${location}-shm`, `${location}-journal`]) {
    if (!existsSync(file)) continue
    const warning = restrictToOwner(file, 'The database file')
    if (warning) warn(warning)
  }
}

/** Opens a connection pool for the configured database. */
export async function createDb(config: DbConfig, options: CreateDbOptions = {}): Promise<Db> {
  const writes = new WriteClock()
  const opened = await createDialect(config, options.warn ?? (() => {}))
  const kysely = new Kysely<Database>({ dialect: withWriteClock(opened.dialect, writes) })
  return {
    kysely,
    dialect: config.dialect,
    writes,
    destroy: () => kysely.destroy(),
    poolUse: opened.poolUse,
  }
}

const POOL_MAX = 10

async function createDialect(
  config: DbConfig,
  warn: (message: string) => void,
): Promise<OpenedDialect> {
  switch (config.dialect) {
    case 'sqlite': {
      const { default: SQLite } = await import('better-sqlite3')
      if (config.location !== ':memory:') prepareSqliteFiles(config.location, warn)
      const database = new SQLite(config.location)
      database.pragma('journal_mode = WAL')
      database.pragma('foreign_keys = ON')
      database.pragma('busy_timeout = 5000')
      database.pragma('synchronous = NORMAL')
      // Deleted and overwritten rows (secrets, sessions) are zeroed, not left in free space.
      database.pragma('secure_delete = ON')
      // One connection, taken by one statement at a time: it is never seen waiting.
      return {
        dialect: new SqliteDialect({ database: withStatementCache(database) }),
        poolUse: () => ({ open: 1, idle: 1, waiting: 0, max: 1 }),
      }
    }
    case 'postgres': {
      const pg = await import('pg')
      // COUNT(*) and bigint come back as strings by default; our ids fit in a number.
      pg.default.types.setTypeParser(INT8_OID, (value: string) => Number(value))
      const pool = new pg.default.Pool({ connectionString: config.location, max: POOL_MAX })
      // An idle connection the database ended (a restart, a failover, an administrator) is
      // dropped and replaced on next use; unheard, its error would end the whole process.
      pool.on('error', (error) => warn(`A database connection was lost: ${error.message}`))
      return {
        dialect: new PostgresDialect({ pool: withNamedStatements(pool) }),
        poolUse: () => ({
          open: pool.totalCount,
          idle: pool.idleCount,
          waiting: pool.waitingCount,
          max: POOL_MAX,
        }),
      }
    }
    case 'mysql': {
      const { createPool } = await import('mysql2')
      const pool = createPool({
        uri: config.location,
        connectionLimit: POOL_MAX,
        supportBigNumbers: true,
        bigNumberStrings: false,
        timezone: 'Z',
      })
      const lists = pool as unknown as MysqlPoolLists
      return {
        dialect: new MysqlDialect({ pool }),
        poolUse: () => ({
          open: lists._allConnections?.length ?? 0,
          idle: lists._freeConnections?.length ?? 0,
          waiting: lists._connectionQueue?.length ?? 0,
          max: POOL_MAX,
        }),
      }
    }
  }
}
