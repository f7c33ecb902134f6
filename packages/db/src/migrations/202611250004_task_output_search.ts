import { sql, type Kysely } from 'kysely'
import type { Dialect } from '../dialect.js'

/*
 * Text search over task logs, with each database's own index:
 * - SQLite: a contentless FTS5 table with the trigram tokenizer (any substring of three
 *   characters or more), keyed by task_output.id. No trigger fills it, so storing a log line
 *   costs nothing more; the server's search indexer copies new lines in batches and records
 *   how far it got in task_output_search_progress. Lines past that mark are scanned.
 * - PostgreSQL: a trigram GIN index (pg_trgm) that serves LIKE/ILIKE '%…%', built
 *   CONCURRENTLY so a big table keeps taking log lines meanwhile (hence no transaction);
 *   fastupdate keeps inserts cheap by deferring the posting-list merge. Where the extension
 *   can not be created, a full-text (to_tsvector) GIN index stands in.
 * - MariaDB/MySQL: nothing here any more; 202611250005 gives the FULLTEXT index (whole words
 *   and word prefixes) a table of its own. Databases that ran this before got a FULLTEXT index
 *   on task_output, which 202611250005 drops.
 */

export const transaction = false

/* eslint-disable @typescript-eslint/no-explicit-any */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`create virtual table if not exists task_output_fts using fts5(
      output, content='', contentless_delete=1, tokenize='trigram')`.execute(db)
    await sql`create table if not exists task_output_search_progress (
      id integer primary key, indexed_through integer not null)`.execute(db)
    await sql`insert or ignore into task_output_search_progress (id, indexed_through)
      values (1, 0)`.execute(db)
    return
  }
  if (dialect === 'postgres') {
    // An earlier attempt that failed half-way leaves an invalid index behind.
    await sql`drop index concurrently if exists task_output_output_search_idx`.execute(db)
    if (await createTrigramExtension(db)) {
      await sql`create index concurrently task_output_output_search_idx on task_output
        using gin (output gin_trgm_ops) with (fastupdate = on)`.execute(db)
    } else {
      await sql`create index concurrently task_output_output_search_idx on task_output
        using gin (to_tsvector('simple', output)) with (fastupdate = on)`.execute(db)
    }
    return
  }
}

/** Whether pg_trgm is (now) installed; creating it needs rights a hosted database may deny. */
async function createTrigramExtension(db: Kysely<any>): Promise<boolean> {
  try {
    await sql`create extension if not exists pg_trgm`.execute(db)
    return true
  } catch {
    const found = await sql<{
      n: number
    }>`select count(*)::int as n from pg_extension where extname = 'pg_trgm'`.execute(db)
    return (found.rows[0]?.n ?? 0) > 0
  }
}

export async function down(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    await sql`drop table if exists task_output_search_progress`.execute(db)
    await sql`drop table if exists task_output_fts`.execute(db)
    return
  }
  if (dialect === 'postgres') {
    await sql`drop index concurrently if exists task_output_output_search_idx`.execute(db)
    return
  }
  await sql`alter table task_output drop index task_output_output_search_idx`.execute(db)
}
