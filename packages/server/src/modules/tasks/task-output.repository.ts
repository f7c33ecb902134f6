import type { TaskOutput } from '@flagman/contract'
import type { Database } from '@flagman/db'
import type { Kysely } from 'kysely'

/*
 * Reading a task's stored output. Lines carry their number (`line`, 1-based) since
 * 202611250002_task_output_lines, so a page is a range scan on (task_id, line) however far
 * into a long log it starts. Rows stored before then have no number; a task holding any is
 * read by its ids, the order it was always read in.
 */

/** Every line of the task, oldest first, as the unpaged route has always answered. */
export function readWholeOutput(db: Kysely<Database>, taskId: number): Promise<TaskOutput[]> {
  return db
    .selectFrom('task_output')
    .select(['task_id', 'time', 'output'])
    .where('task_id', '=', taskId)
    .orderBy('id')
    .execute()
}

/** Whether the task has rows stored before lines were numbered (one index probe). */
async function hasUnnumberedLines(db: Kysely<Database>, taskId: number): Promise<boolean> {
  const row = await db
    .selectFrom('task_output')
    .select('id')
    .where('task_id', '=', taskId)
    .where('line', 'is', null)
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

/** The lines numbered `offset` to `offset + limit - 1`; fewer (or none) near the end. */
export async function readOutputPage(
  db: Kysely<Database>,
  taskId: number,
  offset: number,
  limit: number,
): Promise<TaskOutput[]> {
  if (await hasUnnumberedLines(db, taskId)) {
    // Older logs: their lines are numbered by position, which only an OFFSET can find.
    const rows = await db
      .selectFrom('task_output')
      .select(['task_id', 'time', 'output'])
      .where('task_id', '=', taskId)
      .orderBy('id')
      .limit(limit)
      .offset(offset - 1)
      .execute()
    return rows.map((row, i) => ({ ...row, line: offset + i }))
  }
  // No upper bound on `line`: offset + limit may pass the column's range on PostgreSQL.
  const rows = await db
    .selectFrom('task_output')
    .select(['task_id', 'time', 'output', 'line'])
    .where('task_id', '=', taskId)
    .where('line', '>=', offset)
    .orderBy('line')
    .limit(limit)
    .execute()
  return rows.map((row) => ({
    task_id: row.task_id,
    time: row.time,
    output: row.output,
    line: row.line ?? undefined,
  }))
}

/**
 * How many lines the task has: its highest line number (the buffer numbers them without
 * gaps, and numbered lines follow any unnumbered ones), or a count for older logs.
 */
export async function countOutputLines(db: Kysely<Database>, taskId: number): Promise<number> {
  const highest = await db
    .selectFrom('task_output')
    .select((eb) => eb.fn.max('line').as('line'))
    .where('task_id', '=', taskId)
    .executeTakeFirst()
  if (highest?.line !== null && highest?.line !== undefined) return Number(highest.line)
  const counted = await db
    .selectFrom('task_output')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('task_id', '=', taskId)
    .executeTakeFirst()
  return Number(counted?.n ?? 0)
}
