import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  createDb,
  ensurePrivateFolder,
  migrateToLatest,
  restrictToOwner,
  type Db,
} from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import type { AppOptions } from './app.js'
import type { Config } from './config.js'
import { ENCRYPTION_KEY_FILE } from './lib/secret-box.js'
import { randomPassword } from './lib/secrets.js'
import {
  createUser,
  INITIAL_PASSWORD_FILE,
  passwordTooShortMessage,
  removeStaleInitialPassword,
} from './modules/users/index.js'

export interface RunningServer {
  app: FastifyInstance
  db: Db
  url: string
  /** Closes at once: running tasks are stopped within the shutdown grace period. */
  close(): Promise<void>
  /**
   * A graceful stop: drains first (not ready, serving on while running tasks finish and a
   * load balancer moves away, up to FLAGMAN_SHUTDOWN_DRAIN_SECONDS), then closes.
   */
  stop(): Promise<void>
  /** Cuts a drain under way short: the stop closes now. */
  endDrain(): void
}

export { INITIAL_PASSWORD_FILE }

/**
 * Creates the first administrator when there are no users: with FLAGMAN_ADMIN_PASSWORD when
 * set, otherwise with a generated password written to a file only the owner can read.
 */
async function ensureFirstAdmin(db: Db, config: Config, app: FastifyInstance): Promise<void> {
  const any = await db.kysely.selectFrom('user').select('id').limit(1).executeTakeFirst()
  if (any) return
  const generated = config.adminPassword === ''
  let password = config.adminPassword
  // Long enough for any configured minimum.
  if (generated) while (password.length < config.passwordMinLength) password += randomPassword()
  // A first administrator with a password nobody else may have is refused, not created
  // weaker: the server does not start, and the message names both settings.
  if ([...password].length < config.passwordMinLength) {
    throw new Error(
      `FLAGMAN_ADMIN_PASSWORD is too short: ${passwordTooShortMessage(config.passwordMinLength)} ` +
        '(FLAGMAN_PASSWORD_MIN_LENGTH)',
    )
  }
  await createUser(
    db,
    null,
    {
      username: config.adminLogin,
      name: config.adminName,
      email: config.adminEmail,
      password,
      admin: true,
    },
    { minLength: config.passwordMinLength },
  )
  if (generated) {
    ensurePrivateFolder(config.dataDir)
    const file = join(config.dataDir, INITIAL_PASSWORD_FILE)
    // A file left from an earlier database is replaced, never reused with its permissions.
    rmSync(file, { force: true })
    writeFileSync(file, `${password}\n`, { mode: 0o600, flag: 'wx' })
    app.log.warn(
      `Created the first administrator "${config.adminLogin}"; the password is in ${file}. ` +
        'Sign in and change it.',
    )
  } else {
    app.log.info(`Created the first administrator "${config.adminLogin}"`)
  }
}

/**
 * Migrates the database, builds the app and listens. The data folder (database file, key,
 * work folders) is made private to the server's user first: folder 0700, files 0600.
 */
export async function startServer(
  config: Config,
  options: AppOptions = {},
): Promise<RunningServer> {
  const warnings: string[] = []
  const folderWarning = ensurePrivateFolder(config.dataDir)
  if (folderWarning) warnings.push(folderWarning)
  // Until the app (and its logger) exists, warnings wait; later ones, such as a database
  // connection lost while serving, are logged when they happen.
  let warn: (message: string) => void = (message) => {
    warnings.push(message)
  }
  const db = await createDb(config.db, { warn: (message) => warn(message) })
  await migrateToLatest(db)
  // Loaded here, not at the top: `flagman user …` and other commands import this package
  // and should not pay for loading the web framework.
  const { buildApp } = await import('./app.js')
  const app = await buildApp(config, db, options)
  // Files an earlier version may have left readable by others.
  for (const name of [ENCRYPTION_KEY_FILE, INITIAL_PASSWORD_FILE]) {
    const file = join(config.dataDir, name)
    const warning = existsSync(file) ? restrictToOwner(file, 'The file') : null
    if (warning) warnings.push(warning)
  }
  for (const warning of warnings) app.log.warn(warning)
  warn = (message) => {
    app.log.warn(message)
  }
  const { encryptStoredPasswords } = await import('./modules/environments/index.js')
  const encrypted = await encryptStoredPasswords(db, app.secrets)
  if (encrypted > 0)
    app.log.info(`Encrypted ${encrypted} environment password(s) stored in plain text`)
  try {
    await ensureFirstAdmin(db, config, app)
  } catch (error) {
    await app.close()
    await db.destroy()
    throw error
  }
  const removed = await removeStaleInitialPassword(db, config.dataDir, config.adminLogin)
  if (removed) app.log.info(removed)
  const { startInstance } = await import('./modules/instances/index.js')
  try {
    await startInstance(app)
  } catch (error) {
    await app.close()
    await db.destroy()
    throw error
  }
  const { startTasks } = await import('./modules/tasks/index.js')
  await startTasks(app)
  const { startSchedules } = await import('./modules/schedules/index.js')
  await startSchedules(app)
  await app.listen({ host: config.host, port: config.port })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : config.port
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host
  let closing: Promise<void> | null = null
  const close = () =>
    (closing ??= (async () => {
      await app.close()
      await db.destroy()
    })())
  return {
    app,
    db,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close,
    endDrain: () => app.drain.cut(),
    async stop() {
      await app.drain.run({
        maxMs: config.shutdownDrainMs,
        stopAccepting: () => app.tasks.stopAccepting(),
        busy: () => app.tasks.runningHere > 0,
      })
      await close()
    },
  }
}
