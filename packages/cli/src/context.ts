import { fileURLToPath } from 'node:url'
import { createDb, migrateToLatest, type Db } from '@flagman/db'
import { loadConfig, type Config } from '@flagman/server'

/** Where the built console lives in this checkout. */
export const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url))

export function config(): Config {
  return loadConfig(process.env, DEFAULT_WEB_DIR)
}

/** Opens the configured database, migrated, for one command, and closes it afterwards. */
export async function withDb<T>(work: (db: Db, config: Config) => Promise<T>): Promise<T> {
  const cfg = config()
  const db = await createDb(cfg.db)
  try {
    await migrateToLatest(db)
    return await work(db, cfg)
  } finally {
    await db.destroy()
  }
}
