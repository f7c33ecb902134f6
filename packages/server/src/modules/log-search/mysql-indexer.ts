import { FINISHED_STATUSES } from '@flagman/contract'
import type { Database } from '@flagman/db'
import { sql, type Kysely } from 'kysely'

/*
 * MariaDB/MySQL: copies the lines of ended tasks into task_output_search, whose FULLTEXT index
 * serves searches across tasks. One task at a time, oldest first, in batches; a task's
 * `log_indexed_through` then holds the id of its last line copied (0: not yet). A task is
 * copied once it ended SETTLE_MS ago, as the server may still write a line or two after the
 * end; any line stored after the copy has a higher id, and searches scan those.
 *
 * Lines are taken by task rather than by id: transactions of several connections commit out
 * of id order, so an id mark could pass a line not yet committed.
 */

const BATCH_LINES = 5_000
const SETTLE_MS = 30_000
const FINISHED = sql.join(FINISHED_STATUSES.map((status) => sql`${status}`))

/** Copies the next batch of lines each time it is called; answers whether more are waiting. */
export function mysqlBatchIndexer(db: Kysely<Database>): () => Promise<boolean> {
  /** The task being copied and the id of its last line copied so far. */
  let copying: { taskId: number; through: number } | null = null
  return async () => {
    if (copying === null) {
      const settled = new Date(Date.now() - SETTLE_MS).toISOString()
      const next = await sql<{ id: number }>`select id from task
        where log_indexed_through = 0 and status in (${FINISHED}) and \`end\` < ${settled}
        order by id limit 1`.execute(db)
      const taskId = next.rows[0]?.id
      if (taskId === undefined) return false
      copying = { taskId, through: 0 }
    }
    const { taskId, through: mark } = copying
    const batch = await sql<{ id: number | null; n: number }>`
      select max(id) as id, count(*) as n from (
        select id from task_output where task_id = ${taskId} and id > ${mark}
        order by id limit ${BATCH_LINES}) as batch`.execute(db)
    const { id: through, n } = batch.rows[0] ?? { id: null, n: 0 }
    if (through !== null) {
      // A copy cut short by a restart starts over: the lines already there are skipped.
      await sql`insert ignore into task_output_search (id, task_id, line, time, output)
        select id, task_id, line, time, output from task_output
        where task_id = ${taskId} and id > ${mark} and id <= ${through}`.execute(db)
      copying = { taskId, through: Number(through) }
    }
    if (Number(n) < BATCH_LINES) {
      // A task without lines is marked with the newest line id of all: lines it may still
      // get are newer, and scanned.
      const done = copying.through > 0 ? copying.through : await newestLineId(db)
      await sql`update task set log_indexed_through = ${Math.max(1, done)}
        where id = ${taskId}`.execute(db)
      copying = null
    }
    return true
  }
}

async function newestLineId(db: Kysely<Database>): Promise<number> {
  const row = await sql<{ id: number | null }>`select max(id) as id from task_output`.execute(db)
  return Number(row.rows[0]?.id ?? 0)
}
