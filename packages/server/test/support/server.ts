import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createApiClient, type ApiClient } from '@flagman/contract'
import type { Dialect } from '@flagman/db'
import { createScratchDatabase, type ScratchDatabase } from './databases.js'

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url))
export const FLAGMAN_BIN = join(REPO_ROOT, 'bin', 'flagman')

export const ADMIN = { login: 'admin', password: 'admin-password-1', email: 'admin@example.test' }

export interface TestServer {
  dialect: Dialect
  url: string
  dataDir: string
  /** Environment the server runs with; CLI calls against the same database reuse it. */
  env: NodeJS.ProcessEnv
  /** A client without credentials. */
  anonymous: ApiClient
  /** Signs in by password and returns a client carrying the session cookie. */
  signIn(login: string, password: string): Promise<ApiClient>
  /** A client signed in as the first administrator. */
  admin(): Promise<ApiClient>
  /** Raw fetch against the server (for status, headers and malformed bodies). */
  fetch(path: string, init?: RequestInit): Promise<Response>
  stop(): Promise<void>
  /** Kills the process with the signal and waits for it; keeps the database and data folder. */
  kill?(signal: NodeJS.Signals): Promise<void>
  /** Sends the process a signal (SIGSTOP, SIGCONT…) without waiting for anything. */
  signal?(signal: NodeJS.Signals): void
  /** The database this server uses; `reuse` hands it to the next server. */
  scratch?: ScratchDatabase
}

export interface StartOptions {
  /** Starts on the data folder and database of this (stopped or killed) server. */
  reuse?: Pick<TestServer, 'dataDir' | 'scratch'>
}

/**
 * The environment a process started by a test inherits: the caller's, without any `FLAGMAN_*`
 * setting, so what a developer has set in their shell never changes what a test sees. PATH,
 * HOME, LANG, TMPDIR and the like stay, as processes need them.
 */
export function inheritedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('FLAGMAN_')) env[name] = value
  }
  return env
}

/** A client that keeps the cookie it was given, as a browser would, with the same Origin. */
export function cookieClient(url: string, cookie: string): ApiClient {
  return createApiClient({ baseUrl: url, headers: { Cookie: cookie } })
}

export async function sessionCookie(url: string, auth: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth, password }),
  })
  if (response.status !== 204) {
    throw new Error(`sign-in as ${auth} failed with ${response.status}: ${await response.text()}`)
  }
  const setCookie = response.headers.get('set-cookie') ?? ''
  const match = /(?<!\w)semaphore=([^;]+)/.exec(setCookie)
  if (!match) throw new Error('no session cookie in the sign-in answer')
  return `semaphore=${match[1]}`
}

function waitForListening(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output()}`)), 30_000)
    child.stdout?.on('data', () => {
      const match = /is listening on (http:\/\/\S+)/.exec(output())
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output()}`))
    })
  })
}

/**
 * Starts the real server process (`bin/flagman server`) on a free port against a fresh
 * database of the given dialect, with a first administrator.
 */
export async function startTestServer(
  dialect: Dialect,
  extraEnv: Record<string, string> = {},
  options: StartOptions = {},
): Promise<TestServer> {
  const scratch: ScratchDatabase = options.reuse?.scratch ?? (await createScratchDatabase(dialect))
  const dataDir = options.reuse?.dataDir ?? mkdtempSync(join(tmpdir(), 'flagman-test-'))
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    FLAGMAN_HOST: '127.0.0.1',
    FLAGMAN_PORT: '0',
    FLAGMAN_DATA_DIR: dataDir,
    FLAGMAN_LOG_LEVEL: 'warn',
    // Stops at once: no load balancer waits on a test server.
    FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
    FLAGMAN_ADMIN_LOGIN: ADMIN.login,
    FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
    FLAGMAN_ADMIN_EMAIL: ADMIN.email,
    FLAGMAN_LOGIN_MAX_ATTEMPTS: '1000',
    ...(scratch.url ? { FLAGMAN_DB: scratch.url } : {}),
    ...extraEnv,
  }
  if (!scratch.url) delete env.FLAGMAN_DB
  let log = ''
  const child = spawn(process.execPath, [FLAGMAN_BIN, 'server'], { env, stdio: 'pipe' })
  // Settles once the process is gone, however it ended (exit code or signal), so stopping a
  // server that already died never waits for an 'exit' that has been and gone.
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const running = () => child.exitCode === null && child.signalCode === null
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const url = await waitForListening(child, () => log)
  let stopping = false
  // A server that dies under a test leaves only "fetch failed" behind; say why it died.
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`flagman server (${dialect}) exited: code ${code}, signal ${signal}\n${log}`)
    }
  })

  let adminClient: ApiClient | undefined
  const server: TestServer = {
    dialect,
    url,
    dataDir,
    env,
    anonymous: createApiClient({ baseUrl: url }),
    async signIn(auth, password) {
      return cookieClient(url, await sessionCookie(url, auth, password))
    },
    async admin() {
      adminClient ??= await server.signIn(ADMIN.login, ADMIN.password)
      return adminClient
    },
    fetch: (path, init) => fetch(`${url}${path}`, init),
    async stop() {
      stopping = true
      if (running()) child.kill('SIGTERM')
      await exited
      await scratch.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
    async kill(signal) {
      stopping = true
      if (running()) child.kill(signal)
      await exited
    },
    signal(signal) {
      if (running()) child.kill(signal)
    },
    scratch,
  }
  // Make sure the API answers before handing the server out. (Not a sign-in: each costs a
  // slow password hash, and the tests sign in anyway.)
  const ping = await fetch(`${url}/api/ping`)
  if (ping.status !== 200) throw new Error(`the server answers ping with ${ping.status}\n${log}`)
  return server
}
