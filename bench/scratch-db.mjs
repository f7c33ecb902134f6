// A database of a bench's own for one run, created and dropped here, so that a bench never
// writes to a shared database. BENCH_DB picks the server: sqlite (the default: no database
// to create, the server uses its temporary data folder), postgres or mysql.
// FLAGMAN_TEST_POSTGRES_URL / FLAGMAN_TEST_MYSQL_URL name the servers (an admin connection).

import mysql from 'mysql2/promise'
import pg from 'pg'

export const BENCH_DB = process.env.BENCH_DB ?? 'sqlite'
if (!['sqlite', 'postgres', 'mysql'].includes(BENCH_DB)) {
  throw new Error(`BENCH_DB must be sqlite, postgres or mysql (got ${BENCH_DB})`)
}

export const POSTGRES_ADMIN_URL =
  process.env.FLAGMAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const MYSQL_ADMIN_URL =
  process.env.FLAGMAN_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/mysql'

function withDatabase(url, name) {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function onPostgres(sql) {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await client.connect()
  try {
    for (const statement of sql) await client.query(statement)
  } finally {
    await client.end()
  }
}

async function onMysql(sql) {
  const connection = await mysql.createConnection(MYSQL_ADMIN_URL)
  try {
    for (const statement of sql) await connection.query(statement)
  } finally {
    await connection.end()
  }
}

/**
 * Creates `<prefix>_<pid>` on BENCH_DB's server (dropping a leftover of the same name first)
 * and answers its URL for FLAGMAN_DB (undefined on SQLite) and a way to drop it.
 */
export async function scratchDatabase(prefix) {
  const name = `${prefix}_${process.pid}`
  if (BENCH_DB === 'postgres') {
    const drop = `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`
    await onPostgres([drop, `CREATE DATABASE ${name}`])
    return { url: withDatabase(POSTGRES_ADMIN_URL, name), drop: () => onPostgres([drop]) }
  }
  if (BENCH_DB === 'mysql') {
    const drop = `DROP DATABASE IF EXISTS ${name}`
    await onMysql([drop, `CREATE DATABASE ${name}`])
    return { url: withDatabase(MYSQL_ADMIN_URL, name), drop: () => onMysql([drop]) }
  }
  return { url: undefined, drop: async () => {} }
}
