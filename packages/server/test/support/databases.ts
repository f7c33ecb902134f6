import { randomBytes } from 'node:crypto'
import type { Dialect } from '@flagman/db'
import mysql from 'mysql2/promise'
import pg from 'pg'

/** Where the shared test servers listen (started by scripts/test.sh when present). */
export const POSTGRES_ADMIN_URL =
  process.env.FLAGMAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
export const MYSQL_ADMIN_URL =
  process.env.FLAGMAN_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test'

/** Dialects to run API tests on, from DIALECTS (default: sqlite). */
export function dialects(): Dialect[] {
  const list = (process.env.DIALECTS ?? 'sqlite')
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean)
  for (const d of list) {
    if (d !== 'sqlite' && d !== 'postgres' && d !== 'mysql') throw new Error(`Unknown dialect ${d}`)
  }
  return list as Dialect[]
}

export interface ScratchDatabase {
  /** FLAGMAN_DB value; undefined for SQLite (a file in the data folder). */
  url: string | undefined
  drop(): Promise<void>
}

function withDatabase(url: string, name: string): string {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

/** Creates an empty database of its own for one test server, and drops only that one. */
export async function createScratchDatabase(dialect: Dialect): Promise<ScratchDatabase> {
  const name = `flagman_t_${randomBytes(5).toString('hex')}`
  if (dialect === 'sqlite') return { url: undefined, drop: async () => {} }
  if (dialect === 'postgres') {
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    return {
      url: withDatabase(POSTGRES_ADMIN_URL, name),
      drop: async () => {
        const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
        await c.connect()
        // A closed server's pool may still be ending its connections; cut off mid-way, they
        // would report it as an error of the test run. Give them a moment to go first.
        const deadline = Date.now() + 2000
        while (Date.now() < deadline) {
          const open = await c.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
            [name],
          )
          if (open.rows[0]?.n === 0) break
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await c.end()
      },
    }
  }
  const admin = await mysql.createConnection(MYSQL_ADMIN_URL)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  return {
    url: withDatabase(MYSQL_ADMIN_URL, name),
    drop: async () => {
      const c = await mysql.createConnection(MYSQL_ADMIN_URL)
      await c.query(`DROP DATABASE IF EXISTS ${name}`)
      await c.end()
    },
  }
}
