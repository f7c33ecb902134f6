import type { Database, Statement } from 'better-sqlite3'
import type { SqliteDatabase, SqliteStatement } from 'kysely'

/** How many distinct SQL texts keep their prepared statement; the least recently used go. */
export const SQLITE_STATEMENT_CACHE_SIZE = 500

/**
 * The database as Kysely's SQLite dialect sees it, with `prepare` answered from a bounded
 * cache keyed by the SQL text. Preparing (parsing and planning the SQL) costs about as much
 * as running a small query, and the same few statements run on every request.
 *
 * A statement still being iterated (a streamed query) is busy and can not run again until
 * it ends, so such a statement is never handed out: a fresh one is prepared instead.
 */
export function withStatementCache(
  database: Database,
  size = SQLITE_STATEMENT_CACHE_SIZE,
): SqliteDatabase {
  // A Map keeps insertion order, so re-inserting on use makes its first key the least recent.
  const statements = new Map<string, Statement>()
  return {
    close: () => {
      statements.clear()
      database.close()
    },
    prepare(sql: string): SqliteStatement {
      const cached = statements.get(sql)
      if (cached !== undefined) {
        if (cached.busy) return database.prepare(sql) as SqliteStatement
        statements.delete(sql)
        statements.set(sql, cached)
        return cached as SqliteStatement
      }
      const statement = database.prepare(sql)
      statements.set(sql, statement)
      if (statements.size > size) {
        const oldest = statements.keys().next().value as string
        statements.delete(oldest)
      }
      return statement as SqliteStatement
    },
  }
}
