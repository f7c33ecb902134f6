import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createDb,
  insertReturningId,
  migrateDownAll,
  migrateToLatest,
  nowIso,
  parseDbUrl,
  type Db,
} from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, dialects, type ScratchDatabase } from '../support/databases.js'

const MIGRATION_TABLES = ['flagman_migration', 'flagman_migration_lock']

/** Tables every later feature relies on; the schema holds all entities from the start. */
const ENTITY_TABLES = [
  'user',
  'session',
  'api_token',
  'project',
  'project_user',
  'event',
  'access_key',
  'environment',
  'repository',
  'inventory',
  'view',
  'template',
  'task',
  'schedule',
  'integration',
  'runner',
]

describe.each(dialects())('migrations on %s', (dialect) => {
  let scratch: ScratchDatabase
  let dir: string
  let db: Db

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect)
    dir = mkdtempSync(join(tmpdir(), 'flagman-migrate-'))
    db = await createDb(parseDbUrl(scratch.url, join(dir, 'flagman.sqlite')))
  })
  afterAll(async () => {
    await db?.destroy()
    await scratch?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  async function tables(): Promise<string[]> {
    const found = await db.kysely.introspection.getTables()
    return found.map((t) => t.name).sort()
  }

  it('migrates up, all the way down, and up again', async () => {
    const first = await migrateToLatest(db)
    expect(first.applied.length).toBeGreaterThan(0)
    expect(first.applied).toEqual([...first.applied].sort())
    const created = await tables()
    expect(created).toEqual(expect.arrayContaining([...ENTITY_TABLES, ...MIGRATION_TABLES]))

    // Running again is a no-op.
    expect(await migrateToLatest(db)).toEqual({ applied: [] })

    const down = await migrateDownAll(db)
    expect(down.applied).toEqual([...first.applied].reverse())
    expect(await tables()).toEqual(MIGRATION_TABLES)

    const again = await migrateToLatest(db)
    expect(again.applied).toEqual(first.applied)
    expect(await tables()).toEqual(created)
  })

  it('leaves a schema that stores and reads a user and a project', async () => {
    const created = nowIso()
    const userId = await insertReturningId(db, 'user', {
      created,
      username: 'migrated',
      name: 'Migrated',
      email: 'migrated@example.test',
      password: null,
      admin: 1,
      external: 0,
      alert: 0,
      pro: 0,
    })
    const projectId = await insertReturningId(db, 'project', {
      name: 'After migrations',
      created,
      alert: 0,
      alert_chat: null,
      max_parallel_tasks: 0,
      type: '',
    })
    await db.kysely
      .insertInto('project_user')
      .values({ project_id: projectId, user_id: userId, role: 'owner' })
      .execute()
    const row = await db.kysely
      .selectFrom('project_user')
      .innerJoin('user', 'user.id', 'project_user.user_id')
      .innerJoin('project', 'project.id', 'project_user.project_id')
      .select(['user.username', 'project.name', 'project_user.role', 'project.created'])
      .executeTakeFirstOrThrow()
    expect(row).toEqual({
      username: 'migrated',
      name: 'After migrations',
      role: 'owner',
      created,
    })
    // One member per user and project.
    await expect(
      db.kysely
        .insertInto('project_user')
        .values({ project_id: projectId, user_id: userId, role: 'guest' })
        .execute(),
    ).rejects.toThrow()
  })
})
