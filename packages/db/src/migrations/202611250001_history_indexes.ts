import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * Indexes that keep the history lists range scans on a large database: a template's tasks
 * of one status, newest first, and the tasks built by a task (looked up when one is deleted).
 *
 * They are added to tables that may already hold millions of rows, so they are built
 * without blocking writers: CONCURRENTLY on PostgreSQL (which can not run inside a
 * transaction, hence `transaction = false`), in place without a lock on MariaDB/MySQL.
 */
export const transaction = false

export interface IndexSpec {
  name: string
  table: string
  columns: string[]
}

export const HISTORY_INDEXES: readonly IndexSpec[] = [
  { name: 'task_template_status_idx', table: 'task', columns: ['template_id', 'status', 'id'] },
  { name: 'task_build_task_idx', table: 'task', columns: ['build_task_id'] },
]

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function createOnline(
  db: Kysely<any>,
  dialect: Dialect,
  index: IndexSpec,
): Promise<void> {
  const name = sql.id(index.name)
  const table = sql.id(index.table)
  const columns = sql.join(index.columns.map((c) => sql.id(c)))
  if (dialect === 'postgres') {
    // An interrupted concurrent build leaves an invalid index behind that IF NOT EXISTS would
    // keep; drop it so that it is built again.
    const invalid = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relname = ${index.name} AND NOT i.indisvalid`.execute(db)
    if ((invalid.rows[0]?.n ?? 0) > 0) await sql`DROP INDEX CONCURRENTLY ${name}`.execute(db)
    await sql`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${table} (${columns})`.execute(db)
  } else if (dialect === 'mysql') {
    await sql`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${columns}) ALGORITHM=INPLACE LOCK=NONE`.execute(
      db,
    )
  } else {
    await sql`CREATE INDEX IF NOT EXISTS ${name} ON ${table} (${columns})`.execute(db)
  }
}

export async function dropOnline(
  db: Kysely<any>,
  dialect: Dialect,
  index: IndexSpec,
): Promise<void> {
  const name = sql.id(index.name)
  if (dialect === 'postgres') await sql`DROP INDEX CONCURRENTLY IF EXISTS ${name}`.execute(db)
  else if (dialect === 'mysql') {
    await sql`DROP INDEX IF EXISTS ${name} ON ${sql.id(index.table)}`.execute(db)
  } else await sql`DROP INDEX IF EXISTS ${name}`.execute(db)
}

export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const index of HISTORY_INDEXES) await createOnline(db, dialect, index)
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const index of [...HISTORY_INDEXES].reverse()) await dropOnline(db, dialect, index)
}
