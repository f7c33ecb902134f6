import type { Database } from '@flagman/db'
import { sql, type Kysely } from 'kysely'

/*
 * Fills SQLite's FTS5 table in the background, in batches, so that storing a log line never
 * waits for the search index (a trigger per line would slow the live log down). Lines are
 * taken in id order: SQLite writes one transaction at a time and ids only grow
 * (AUTOINCREMENT), so everything at or below the mark is indexed, and a search scans the
 * rest. Lines of deleted tasks may stay in the index; searches join task_output and drop
 * them.
 */

const BATCH_LINES = 5_000

/** The id of the newest line the FTS5 table holds (0: none). */
export async function indexedThrough(db: Kysely<Database>): Promise<number> {
  const row = await sql<{ indexed_through: number }>`
    select indexed_through from task_output_search_progress where id = 1`.execute(db)
  return Number(row.rows[0]?.indexed_through ?? 0)
}

/** Indexes the next batch of lines; answers how many it took. */
export async function indexNextBatch(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const mark = await indexedThrough(trx)
    const last = await sql<{ id: number | null; n: number }>`
      select max(id) as id, count(*) as n from (
        select id from task_output where id > ${mark} order by id limit ${BATCH_LINES})`.execute(
      trx,
    )
    const { id: through, n } = last.rows[0] ?? { id: null, n: 0 }
    if (through === null) return 0
    await sql`insert into task_output_fts (rowid, output)
      select id, output from task_output where id > ${mark} and id <= ${through}`.execute(trx)
    await sql`update task_output_search_progress set indexed_through = ${through}
      where id = 1`.execute(trx)
    return Number(n)
  })
}

/** Indexes the next batch of lines each time it is called; answers whether more are waiting. */
export function sqliteBatchIndexer(db: Kysely<Database>): () => Promise<boolean> {
  return async () => (await indexNextBatch(db)) === BATCH_LINES
}
