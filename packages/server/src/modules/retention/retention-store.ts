import { FINISHED_STATUSES } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { sql } from 'kysely'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'

/*
 * The database side of retention: which rows are due and how they are removed. Every
 * statement touches a bounded number of rows, so that a sweep over years of history never
 * holds a lock long enough for the API or a task's log writer to notice.
 */

/** Log lines removed by one statement. */
export const OUTPUT_CHUNK = 5_000

/** A task the sweep may remove. */
export interface DueTask {
  id: number
  project_id: number
}

/** Finished tasks (the only ones retention removes), at most `limit`. */
function finishedTasks(db: Db, limit: number) {
  return db.kysely
    .selectFrom('task')
    .select(['id', 'project_id'])
    .where('status', 'in', FINISHED_STATUSES)
    .limit(limit)
}

/** Finished tasks of a project created before `cutoff`, oldest first. */
export function tasksCreatedBefore(
  db: Db,
  projectId: number,
  cutoff: string,
  limit: number,
): Promise<DueTask[]> {
  return finishedTasks(db, limit)
    .where('project_id', '=', projectId)
    .where('created', '<', cutoff)
    .orderBy('created')
    .orderBy('id')
    .execute()
}

/** Templates of a project with more than `keep` tasks, and the id of their `keep`-th newest. */
export async function templatesOverLimit(
  db: Db,
  projectId: number,
  keep: number,
): Promise<{ templateId: number; oldestKeptId: number }[]> {
  const counts = await db.kysely
    .selectFrom('task')
    .select(['template_id', sql<number | string>`count(*)`.as('n')])
    .where('project_id', '=', projectId)
    .groupBy('template_id')
    .having(sql<number>`count(*)`, '>', keep)
    .execute()
  const over: { templateId: number; oldestKeptId: number }[] = []
  for (const row of counts) {
    const kept = await db.kysely
      .selectFrom('task')
      .select('id')
      .where('template_id', '=', row.template_id)
      .orderBy('id', 'desc')
      .limit(1)
      .offset(keep - 1)
      .executeTakeFirst()
    if (kept) over.push({ templateId: row.template_id, oldestKeptId: kept.id })
  }
  return over
}

/** Finished tasks of a template older than its `keep`-th newest, oldest first. */
export function tasksBeforeId(
  db: Db,
  templateId: number,
  beforeId: number,
  limit: number,
): Promise<DueTask[]> {
  return finishedTasks(db, limit)
    .where('template_id', '=', templateId)
    .where('id', '<', beforeId)
    .orderBy('id')
    .execute()
}

/** Yields to the event loop, so that requests waiting on this process are served. */
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Removes tasks with their log (in chunks), their search index entries and their working
 * folders. Tasks built on one of them keep running history: their link is cleared.
 */
export async function removeTasks(db: Db, dataDir: string, tasks: DueTask[]): Promise<void> {
  if (tasks.length === 0) return
  const ids = tasks.map((task) => task.id)
  for (;;) {
    const chunk = await db.kysely
      .selectFrom('task_output')
      .select('id')
      .where('task_id', 'in', ids)
      .limit(OUTPUT_CHUNK)
      .execute()
    if (chunk.length === 0) break
    const lineIds = chunk.map((row) => row.id)
    if (db.dialect === 'sqlite') {
      // The trigram index holds no copy of the text, so its rows are removed by id.
      await sql`delete from task_output_fts where rowid in (${sql.join(lineIds)})`.execute(
        db.kysely,
      )
    }
    await db.kysely.deleteFrom('task_output').where('id', 'in', lineIds).execute()
    await yieldNow()
  }
  if (db.dialect === 'mysql') {
    await sql`delete from task_output_search where task_id in (${sql.join(ids)})`.execute(db.kysely)
  }
  await db.kysely.transaction().execute(async (trx) => {
    await trx
      .updateTable('task')
      .set({ build_task_id: null })
      .where('build_task_id', 'in', ids)
      .execute()
    await trx.deleteFrom('task').where('id', 'in', ids).execute()
  })
  await removeWorkingFolders(dataDir, tasks)
}

/** Folders a task left under the work root (the server removes them itself unless it crashed). */
async function removeWorkingFolders(dataDir: string, tasks: DueTask[]): Promise<void> {
  const byProject = new Map<number, Set<number>>()
  for (const task of tasks) {
    const ids = byProject.get(task.project_id) ?? new Set<number>()
    ids.add(task.id)
    byProject.set(task.project_id, ids)
  }
  for (const [projectId, ids] of byProject) {
    const root = join(dataDir, 'work', `project_${projectId}`)
    const names = await readdir(root).catch(() => [] as string[])
    for (const name of names) {
      const match = /^task_(\d+)_tmp_/.exec(name)
      if (match && ids.has(Number(match[1]))) {
        await rm(join(root, name), { recursive: true, force: true })
      }
    }
  }
}

/** Removes up to `limit` events created before `cutoff`; answers how many. */
export async function removeEventsBefore(db: Db, cutoff: string, limit: number): Promise<number> {
  const rows = await db.kysely
    .selectFrom('event')
    .select('id')
    .where('created', '<', cutoff)
    .orderBy('created')
    .limit(limit)
    .execute()
  if (rows.length === 0) return 0
  await db.kysely
    .deleteFrom('event')
    .where(
      'id',
      'in',
      rows.map((row) => row.id),
    )
    .execute()
  return rows.length
}
