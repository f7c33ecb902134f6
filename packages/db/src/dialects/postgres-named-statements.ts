import type { Pool, PoolClient } from 'pg'
import type { PostgresCursor, PostgresPool, PostgresPoolClient } from 'kysely'

/** How many distinct SQL texts become named prepared statements, at most, for the whole run. */
export const POSTGRES_NAMED_STATEMENTS = 256

/**
 * The pool as Kysely's PostgreSQL dialect sees it, where SQL that runs again is sent as a
 * named prepared statement: each connection parses and plans it once, later runs only bind
 * and execute.
 *
 * Every name lives as long as the connection on both sides, so names are bounded: a text is
 * named on its second run (one-off statements never are) and only while fewer than `limit`
 * texts have been; the rest run unnamed, as before.
 */
export function withNamedStatements(pool: Pool, limit = POSTGRES_NAMED_STATEMENTS): PostgresPool {
  const names = new Map<string, string>()
  // Texts run once so far; cleared when full, so it stays bounded too.
  const seenOnce = new Set<string>()
  const nameOf = (sql: string): string | undefined => {
    const name = names.get(sql)
    if (name !== undefined || names.size >= limit) return name
    if (!seenOnce.has(sql)) {
      if (seenOnce.size >= limit * 4) seenOnce.clear()
      seenOnce.add(sql)
      return undefined
    }
    seenOnce.delete(sql)
    const fresh = `flagman_${names.size + 1}`
    names.set(sql, fresh)
    return fresh
  }
  // Kysely keys its connection state by the client object, so each pg client keeps one wrapper.
  const wrappers = new WeakMap<PoolClient, PostgresPoolClient>()
  const wrap = (client: PoolClient): PostgresPoolClient => {
    const query = (sql: string | PostgresCursor<unknown>, parameters?: ReadonlyArray<unknown>) => {
      if (typeof sql !== 'string') return client.query(sql as never)
      const name = nameOf(sql)
      const values = parameters as unknown[]
      return name === undefined
        ? client.query(sql, values)
        : client.query({ name, text: sql, values })
    }
    // pg's own overloads say the same as Kysely's, in types TypeScript can not match up.
    return {
      query: query as unknown as PostgresPoolClient['query'],
      release: () => client.release(),
    }
  }
  return {
    async connect() {
      const client = await pool.connect()
      let wrapper = wrappers.get(client)
      if (wrapper === undefined) {
        wrapper = wrap(client)
        wrappers.set(client, wrapper)
      }
      return wrapper
    },
    end: () => pool.end(),
  }
}
