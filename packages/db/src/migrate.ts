import { Migrator, type MigrationResultSet } from 'kysely'
import type { Db } from './dialects/create-db.js'
import { migrationsFor } from './migrations/index.js'

export interface MigrationReport {
  applied: string[]
}

function migratorFor(db: Db): Migrator {
  return new Migrator({
    db: db.kysely,
    provider: { getMigrations: async () => migrationsFor(db.dialect) },
    migrationTableName: 'flagman_migration',
    migrationLockTableName: 'flagman_migration_lock',
  })
}

function check(result: MigrationResultSet): MigrationReport {
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')
    const reason = result.error instanceof Error ? result.error.message : String(result.error)
    const which = failed ? `Migration ${failed.migrationName}` : 'Migrating the database'
    throw new Error(`${which} failed: ${reason}`)
  }
  return {
    applied: (result.results ?? [])
      .filter((r) => r.status === 'Success')
      .map((r) => r.migrationName),
  }
}

/** Applies every pending migration; safe to run on each start. */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  return check(await migratorFor(db).migrateToLatest())
}

/** Reverts every migration (used by the migration tests). */
export async function migrateDownAll(db: Db): Promise<MigrationReport> {
  const migrator = migratorFor(db)
  let reverted: string[] = []
  for (;;) {
    const result = check(await migrator.migrateDown())
    if (result.applied.length === 0) break
    reverted = reverted.concat(result.applied)
  }
  return { applied: reverted }
}
