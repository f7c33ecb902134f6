import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect } from 'kysely'
import type { Database } from '../database.js'
import type { DbConfig, Dialect } from '../dialect.js'

export interface Db {
  readonly kysely: Kysely<Database>
  readonly dialect: Dialect
  destroy(): Promise<void>
}

const INT8_OID = 20

/** Opens a connection pool for the configured database. */
export async function createDb(config: DbConfig): Promise<Db> {
  const kysely = new Kysely<Database>({ dialect: await createDialect(config) })
  return { kysely, dialect: config.dialect, destroy: () => kysely.destroy() }
}

async function createDialect(config: DbConfig) {
  switch (config.dialect) {
    case 'sqlite': {
      const { default: SQLite } = await import('better-sqlite3')
      if (config.location !== ':memory:') mkdirSync(dirname(config.location), { recursive: true })
      const database = new SQLite(config.location)
      database.pragma('journal_mode = WAL')
      database.pragma('foreign_keys = ON')
      database.pragma('busy_timeout = 5000')
      database.pragma('synchronous = NORMAL')
      return new SqliteDialect({ database })
    }
    case 'postgres': {
      const pg = await import('pg')
      // COUNT(*) and bigint come back as strings by default; our ids fit in a number.
      pg.default.types.setTypeParser(INT8_OID, (value: string) => Number(value))
      return new PostgresDialect({
        pool: new pg.default.Pool({ connectionString: config.location, max: 10 }),
      })
    }
    case 'mysql': {
      const { createPool } = await import('mysql2')
      return new MysqlDialect({
        pool: createPool({
          uri: config.location,
          connectionLimit: 10,
          supportBigNumbers: true,
          bigNumberStrings: false,
          timezone: 'Z',
        }),
      })
    }
  }
}
