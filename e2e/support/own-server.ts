import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApiClient, type ApiClient } from '@flagman/contract'
import { expect } from '@playwright/test'

const BIN = fileURLToPath(new URL('../../bin/flagman', import.meta.url))

/** A running server of one test file's own. */
export interface OwnServer {
  url: string
  stop(): Promise<void>
}

export interface OwnServerOptions {
  /** The administrator created on first start. */
  admin: { login: string; password: string; email: string }
  /** `FLAGMAN_*` settings beyond the basic ones (sign-in methods, say). */
  settings?: Record<string, string>
  /** Data folder the caller owns and removes; by default a new one, removed on stop. */
  dataDir?: string
}

/**
 * Starts the built server with settings the shared browser-test server does not have, on a
 * fresh SQLite database and a free port. Only the given `FLAGMAN_*` settings reach it, none
 * from the caller's environment.
 */
export async function startOwnServer(options: OwnServerOptions): Promise<OwnServer> {
  const ownsDataDir = options.dataDir === undefined
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'flagman-e2e-own-'))
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('FLAGMAN_')) env[name] = value
  }
  Object.assign(env, {
    FLAGMAN_HOST: '127.0.0.1',
    FLAGMAN_PORT: '0',
    FLAGMAN_DATA_DIR: dataDir,
    FLAGMAN_LOG_LEVEL: 'warn',
    // Stops at once: no load balancer waits on a test server.
    FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
    FLAGMAN_ADMIN_LOGIN: options.admin.login,
    FLAGMAN_ADMIN_PASSWORD: options.admin.password,
    FLAGMAN_ADMIN_EMAIL: options.admin.email,
    ...options.settings,
  })
  const child: ChildProcess = spawn(process.execPath, [BIN, 'server'], { env, stdio: 'pipe' })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let log = ''
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000)
    const read = (chunk: Buffer) => {
      log += chunk.toString()
      const match = /is listening on (http:\/\/\S+)/.exec(log)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${log}`))
    })
  })
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      if (ownsDataDir) rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Signs in by password through the API of a server of its own; a client with the cookie. */
export async function apiSignInAt(
  url: string,
  login: string,
  password: string,
): Promise<ApiClient> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: login, password }),
  })
  expect(response.status, `sign-in as ${login}`).toBe(204)
  const cookie = /(?<!\w)semaphore=[^;]+/.exec(response.headers.get('set-cookie') ?? '')?.[0]
  if (!cookie) throw new Error('no session cookie')
  return createApiClient({ baseUrl: url, headers: { Cookie: cookie } })
}
