import { Migrator, type MigrationResultSet } from 'kysely'
import type { Db } from './dialects/create-db.js'
import { migrationsFor, migrationsOutsideTransaction } from './migrations/index.js'

export interface MigrationReport {
  applied: string[]
}

interface MigratorOptions {
  /** Whether the run is wrapped in a transaction (where the dialect has transactional DDL). */
  transaction: boolean
  /** The last migration this migrator knows of; later ones are left for a later run. */
  upTo?: string
}

function migratorFor(db: Db, options: MigratorOptions): Migrator {
  const { upTo } = options
  return new Migrator({
    db: db.kysely,
    provider: {
      getMigrations: async () => {
        const all = migrationsFor(db.dialect)
        if (upTo === undefined) return all
        return Object.fromEntries(Object.entries(all).filter(([name]) => name <= upTo))
      },
    },
    migrationTableName: 'flagman_migration',
    migrationLockTableName: 'flagman_migration_lock',
    disableTransactions: !options.transaction,
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

/**
 * Splits the pending migrations into runs: consecutive ordinary migrations share one
 * transaction, and each migration that can not run inside one runs alone, without.
 */
function runsOf(pending: string[], outside: Set<string>): { last: string; transaction: boolean }[] {
  const runs: { last: string; transaction: boolean }[] = []
  for (const name of pending) {
    const transaction = !outside.has(name)
    const previous = runs.at(-1)
    if (previous && previous.transaction && transaction) previous.last = name
    else runs.push({ last: name, transaction })
  }
  return runs
}

/** Names of the migrations this version knows and the database has not had yet. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const known = await migratorFor(db, { transaction: true }).getMigrations()
  return known.filter((m) => m.executedAt === undefined).map((m) => m.name)
}

/** Applies every pending migration; safe to run on each start. */
export async function migrateToLatest(db: Db): Promise<MigrationReport> {
  const outside = migrationsOutsideTransaction()
  const known = await migratorFor(db, { transaction: true }).getMigrations()
  const pending = known.filter((m) => m.executedAt === undefined).map((m) => m.name)
  const applied: string[] = []
  // Each run migrates "to the latest it knows of" rather than "to a name": should another
  // server have migrated further meanwhile, this never reverts what it did.
  for (const run of runsOf(pending, outside)) {
    const report = check(await migratorFor(db, { ...run, upTo: run.last }).migrateToLatest())
    applied.push(...report.applied)
  }
  return { applied }
}

/** Reverts every migration (used by the migration tests). */
export async function migrateDownAll(db: Db): Promise<MigrationReport> {
  const outside = migrationsOutsideTransaction()
  let reverted: string[] = []
  for (;;) {
    const known = await migratorFor(db, { transaction: true }).getMigrations()
    const last = known.filter((m) => m.executedAt !== undefined).at(-1)
    if (!last) break
    const migrator = migratorFor(db, { transaction: !outside.has(last.name) })
    const result = check(await migrator.migrateDown())
    if (result.applied.length === 0) break
    reverted = reverted.concat(result.applied)
  }
  return { applied: reverted }
}
