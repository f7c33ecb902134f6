import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createDb, migrateDownAll, migrateToLatest, parseDbUrl, type Db } from '@flagman/db'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, dialects, type ScratchDatabase } from '../support/databases.js'

const HISTORY_INDEXES = ['task_template_status_idx', 'task_build_task_idx']

/** Names of the indexes on the task table, and on PostgreSQL whether each is valid. */
async function taskIndexes(db: Db): Promise<Map<string, boolean>> {
  if (db.dialect === 'postgres') {
    const r = await sql<{ name: string; valid: boolean }>`
      SELECT c.relname AS name, i.indisvalid AS valid
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_class t ON t.oid = i.indrelid WHERE t.relname = 'task'`.execute(db.kysely)
    return new Map(r.rows.map((row) => [row.name, row.valid]))
  }
  if (db.dialect === 'mysql') {
    const r = await sql<{ name: string }>`
      SELECT DISTINCT index_name AS name FROM information_schema.statistics
      WHERE table_schema = database() AND table_name = 'task'`.execute(db.kysely)
    return new Map(r.rows.map((row) => [row.name, true]))
  }
  const r = await sql<{ name: string }>`
    SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'task'`.execute(db.kysely)
  return new Map(r.rows.map((row) => [row.name, true]))
}

describe.each(dialects())('history indexes on %s', (dialect) => {
  let scratch: ScratchDatabase
  let dir: string
  let db: Db

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect)
    dir = mkdtempSync(join(tmpdir(), 'flagman-history-indexes-'))
    db = await createDb(parseDbUrl(scratch.url, join(dir, 'flagman.sqlite')))
  })
  afterAll(async () => {
    await db?.destroy()
    await scratch?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('creates them (valid, outside a transaction on PostgreSQL) and drops them on the way down', async () => {
    const report = await migrateToLatest(db)
    expect(report.applied).toContain('202611250001_history_indexes')
    expect(report.applied).toEqual([...report.applied].sort())
    const indexes = await taskIndexes(db)
    for (const name of HISTORY_INDEXES) expect(indexes.get(name), name).toBe(true)

    await migrateDownAll(db)
    expect(await db.kysely.introspection.getTables()).toHaveLength(2)
    const again = await migrateToLatest(db)
    expect(again.applied).toEqual(report.applied)
    expect(await migrateToLatest(db)).toEqual({ applied: [] })
    const rebuilt = await taskIndexes(db)
    for (const name of HISTORY_INDEXES) expect(rebuilt.get(name), name).toBe(true)
  })

  it.runIf(dialect === 'sqlite')('makes the history queries index range scans', async () => {
    const plan = async (query: string) =>
      (await sql.raw<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`).execute(db.kysely)).rows
        .map((r) => r.detail)
        .join('; ')
    expect(
      await plan(`SELECT id FROM task WHERE project_id = 1 AND id < 9 ORDER BY id DESC LIMIT 50`),
    ).toMatch(/SEARCH task USING (COVERING )?INDEX task_project_idx \(project_id=\? AND id<\?\)/)
    expect(
      await plan(
        `SELECT id FROM task WHERE template_id = 1 AND status = 'error' ORDER BY id DESC LIMIT 50`,
      ),
    ).toMatch(
      /SEARCH task USING (COVERING )?INDEX task_template_status_idx \(template_id=\? AND status=\?\)/,
    )
    expect(
      await plan(`SELECT id FROM event WHERE project_id = 1 AND id < 9 ORDER BY id DESC LIMIT 50`),
    ).toMatch(/SEARCH event USING (COVERING )?INDEX event_project_idx \(project_id=\? AND id<\?\)/)
    expect(await plan(`SELECT id FROM task WHERE build_task_id = 1`)).toMatch(
      /SEARCH task USING (COVERING )?INDEX task_build_task_idx/,
    )
  })
})
