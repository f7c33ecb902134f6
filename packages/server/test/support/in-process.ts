import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApiClient } from '@flagman/contract'
import type { Dialect } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import { loadConfig } from '../../src/config.js'
import { startServer } from '../../src/start.js'
import type { AppOptions } from '../../src/app.js'
import { createScratchDatabase, type ScratchDatabase } from './databases.js'
import { ADMIN, cookieClient, sessionCookie, type TestServer } from './server.js'

/** A test server running in this process, so a test can reach its parts (e.g. the clock). */
export interface InProcessServer extends TestServer {
  app: FastifyInstance
  /** Closes the server as a shutdown does, keeping the database and data folder. */
  close(): Promise<void>
}

/**
 * Starts the server in this process on 127.0.0.1 and a free port, against a fresh database
 * of the dialect, with a first administrator. Use it only when a test must call into the
 * running server; other tests use the real process (`startTestServer`).
 */
export interface InProcessOptions {
  /** Joins the database of another server (which owns and drops it) instead of a new one. */
  database?: ScratchDatabase
  /** More settings, over the test defaults. */
  env?: Record<string, string>
  /** Parts handed in instead of the real ones (a schedule clock the test moves). */
  app?: AppOptions
}

export async function startInProcessServer(
  dialect: Dialect,
  options: InProcessOptions = {},
): Promise<InProcessServer> {
  const scratch = options.database
    ? { url: options.database.url, drop: async () => {} }
    : await createScratchDatabase(dialect)
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-test-'))
  const env: NodeJS.ProcessEnv = {
    FLAGMAN_HOST: '127.0.0.1',
    FLAGMAN_PORT: '0',
    FLAGMAN_DATA_DIR: dataDir,
    FLAGMAN_LOG_LEVEL: 'warn',
    FLAGMAN_ADMIN_LOGIN: ADMIN.login,
    FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
    FLAGMAN_ADMIN_EMAIL: ADMIN.email,
    FLAGMAN_LOGIN_MAX_ATTEMPTS: '1000',
    FLAGMAN_WEB_DIR: '',
    FLAGMAN_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
    FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
    ...(scratch.url ? { FLAGMAN_DB: scratch.url } : {}),
    ...options.env,
  }
  const running = await startServer(loadConfig(env, ''), options.app)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await running.close()
  }
  const server: InProcessServer = {
    app: running.app,
    dialect,
    url: running.url,
    dataDir,
    env,
    anonymous: createApiClient({ baseUrl: running.url }),
    signIn: async (auth, password) =>
      cookieClient(running.url, await sessionCookie(running.url, auth, password)),
    admin: () => server.signIn(ADMIN.login, ADMIN.password),
    fetch: (path, init) => fetch(`${running.url}${path}`, init),
    close,
    async stop() {
      await close()
      await scratch.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
    scratch,
  }
  return server
}
