import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  AccessKey,
  createApiClient,
  Environment,
  Inventory,
  login,
  Refs,
  Repository,
  View,
} from '@flagman/contract'
import { insertReturningId, nowIso, type Db, type Dialect } from '@flagman/db'
import { sql } from 'kysely'
import { expect } from 'vitest'
import { z } from 'zod'
import { createScratchDatabase } from './databases.js'
import type { Person, World } from './fixtures.js'
import { expectBody, http, type Credentials, type HttpOptions, type HttpResult } from './http.js'
import {
  ADMIN,
  cookieClient,
  FLAGMAN_BIN,
  inheritedEnv,
  sessionCookie,
  type TestServer,
} from './server.js'

/** Sends one request; a World's `request`, or a wrapper that records what it sees. */
export type Send = (method: string, path: string, options?: HttpOptions) => Promise<HttpResult>

/** Real SSH private keys made by ssh-keygen, read into memory (the files are removed). */
export interface SshKeys {
  /** ed25519, OpenSSH format, no passphrase. */
  plain: string
  /** ed25519, OpenSSH format, protected by `passphrase`. */
  encrypted: string
  passphrase: string
  /** RSA in the old PEM format, no passphrase. */
  rsaPem: string
  /** The public half of `plain`, which is not a private key. */
  publicKey: string
  /** ECDSA as encrypted PKCS#8 (`BEGIN ENCRYPTED PRIVATE KEY`), protected by `passphrase`. */
  pkcs8Encrypted: string
  /** ECDSA in the old PEM format with `Proc-Type: 4,ENCRYPTED`, protected by `passphrase`. */
  pemEncrypted: string
}

export function generateSshKeys(passphrase = 'correct horse battery staple'): SshKeys {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-keys-'))
  try {
    const keygen = (file: string, ...args: string[]): string => {
      execFileSync('ssh-keygen', ['-q', '-C', 'flagman-test', '-f', join(dir, file), ...args], {
        stdio: 'ignore',
      })
      return readFileSync(join(dir, file), 'utf8')
    }
    const plain = keygen('plain', '-t', 'ed25519', '-N', '')
    return {
      plain,
      encrypted: keygen('encrypted', '-t', 'ed25519', '-N', passphrase),
      passphrase,
      rsaPem: keygen('rsa', '-t', 'rsa', '-b', '2048', '-m', 'PEM', '-N', ''),
      publicKey: readFileSync(join(dir, 'plain.pub'), 'utf8'),
      pkcs8Encrypted: keygen('pkcs8', '-t', 'ecdsa', '-m', 'PKCS8', '-N', passphrase),
      pemEncrypted: keygen('pem', '-t', 'ecdsa', '-m', 'PEM', '-N', passphrase),
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

type Fields = Record<string, unknown>

/**
 * Creates and reads a project's resources through the API as one person, asserting each
 * answer against the contract. Bodies are the console's defaults merged with `fields`.
 */
export class ProjectResources {
  constructor(
    private readonly send: Send,
    readonly as: Credentials,
    readonly projectId: number,
  ) {}

  get base(): string {
    return `/api/project/${this.projectId}`
  }

  request(method: string, path: string, json?: unknown): Promise<HttpResult> {
    return this.send(method, `${this.base}${path}`, {
      as: this.as,
      ...(json === undefined ? {} : { json }),
    })
  }

  async key(name: string, fields: Fields = {}): Promise<AccessKey> {
    const body = { name, type: 'none', project_id: this.projectId, ...fields }
    return expectBody(await this.request('POST', '/keys', body), 201, AccessKey)
  }

  loginPasswordKey(name: string, password: string, login = 'deploy'): Promise<AccessKey> {
    return this.key(name, { type: 'login_password', login_password: { login, password } })
  }

  sshKey(name: string, privateKey: string, passphrase = '', login = 'git'): Promise<AccessKey> {
    return this.key(name, {
      type: 'ssh',
      ssh: { login, passphrase, private_key: privateKey },
    })
  }

  async repository(name: string, sshKeyId: number, fields: Fields = {}): Promise<Repository> {
    const body = {
      name,
      project_id: this.projectId,
      git_url: 'https://example.test/repo.git',
      git_branch: 'main',
      ssh_key_id: sshKeyId,
      ...fields,
    }
    return expectBody(await this.request('POST', '/repositories', body), 201, Repository)
  }

  async inventory(name: string, sshKeyId: number | null, fields: Fields = {}): Promise<Inventory> {
    const body = {
      name,
      project_id: this.projectId,
      type: 'static',
      inventory: '[web]\nweb1.example.test',
      ssh_key_id: sshKeyId,
      ...fields,
    }
    return expectBody(await this.request('POST', '/inventory', body), 201, Inventory)
  }

  async environment(name: string, fields: Fields = {}): Promise<Environment> {
    const body = { name, project_id: this.projectId, json: '{}', env: '{}', ...fields }
    return expectBody(await this.request('POST', '/environment', body), 201, Environment)
  }

  async view(title: string, position = 0): Promise<View> {
    const body = { title, position, project_id: this.projectId }
    return expectBody(await this.request('POST', '/views', body), 201, View)
  }

  /** GET of a list (`/keys`, `/inventory?app=…`) parsed by the item schema. */
  async list<T extends z.ZodType>(path: string, item: T): Promise<z.output<T>[]> {
    return expectBody(await this.request('GET', path), 200, z.array(item))
  }

  async get<T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> {
    return expectBody(await this.request('GET', path), 200, schema)
  }

  refs(path: string): Promise<Refs> {
    return this.get(`${path}/refs`, Refs)
  }
}

const JSON_HEADERS = { 'Content-Type': 'application/json' }

/**
 * Request bodies every JSON write must refuse whatever the resource, given a valid body:
 * syntax errors, non-objects, wrong types, NUL characters, long names. (Fields a body does
 * not declare are ignored, not refused: unknown-fields.api.test.ts covers every route.)
 */
export function malformedBodies(
  valid: Record<string, unknown>,
  nameField = 'name',
): Array<[string, HttpOptions]> {
  return [
    ['malformed JSON', { raw: '{"name": "x",', headers: JSON_HEADERS }],
    ['truncated JSON', { raw: JSON.stringify(valid).slice(0, -1), headers: JSON_HEADERS }],
    ['an empty body', { raw: '', headers: JSON_HEADERS }],
    ['no body', {}],
    ['null', { raw: 'null', headers: JSON_HEADERS }],
    ['an array', { json: [valid] }],
    ['a string', { json: 'text' }],
    ['a number', { json: 42 }],
    ['a NUL character', { json: { ...valid, [nameField]: 'a\u0000b' } }],
    ['a 256-character name', { json: { ...valid, [nameField]: 'x'.repeat(256) } }],
    ['a numeric name', { json: { ...valid, [nameField]: 42 } }],
    ['an object as name', { json: { ...valid, [nameField]: { en: 'x' } } }],
    ['project_id as text', { json: { ...valid, project_id: String(valid.project_id) } }],
    ['project_id as a fraction', { json: { ...valid, project_id: 1.5 } }],
  ]
}

/** A refusal: a 4xx status (never 500) and a non-empty `error`. */
export function expectRefused(result: HttpResult, label: string): void {
  expect(result.status, `${label}: status (body: ${result.text})`).toBeGreaterThanOrEqual(400)
  expect(result.status, `${label}: status (body: ${result.text})`).toBeLessThan(500)
  expect(result.body, `${label}: body`).toEqual({ error: expect.any(String) })
  expect((result.body as { error: string }).error.trim(), `${label}: error`).not.toBe('')
}

/** Inserts a template row directly (the templates API is not part of this suite). */
export async function insertTemplate(
  db: Db,
  projectId: number,
  fields: {
    name: string
    inventory_id?: number | null
    repository_id?: number | null
    environment_id?: number | null
    view_id?: number | null
    app?: string
  },
): Promise<number> {
  return insertReturningId(db, 'template', {
    project_id: projectId,
    name: fields.name,
    playbook: 'site.yml',
    app: fields.app ?? 'ansible',
    inventory_id: fields.inventory_id ?? null,
    repository_id: fields.repository_id ?? null,
    environment_id: fields.environment_id ?? null,
    view_id: fields.view_id ?? null,
    created: nowIso(),
  })
}

/** A member of each role without manageProjectResources, a manager, and an outsider. */
export interface Cast {
  manager: Person
  task_runner: Person
  guest: Person
  /** Signed in, but not a member of the project. */
  outsider: Person
}

export async function castFor(world: World, projectId: number): Promise<Cast> {
  const [manager, taskRunner, guest, outsider] = await Promise.all([
    world.newUser(),
    world.newUser(),
    world.newUser(),
    world.newUser(),
  ])
  await world.addMember(projectId, manager.id, 'manager')
  await world.addMember(projectId, taskRunner.id, 'task_runner')
  await world.addMember(projectId, guest.id, 'guest')
  return { manager, task_runner: taskRunner, guest, outsider }
}

/** A table's rows of one project as text, to show that a refused request changed nothing. */
export async function projectRows(db: Db, table: string, projectId: number): Promise<string> {
  const rows = await sql<Record<string, unknown>>`select * from ${sql.table(
    table,
  )} where project_id = ${projectId} order by id`.execute(db.kysely)
  return JSON.stringify(rows.rows)
}

/** Every row of every table as text, so a test can search the whole database for a value. */
export async function dumpDatabase(db: Db): Promise<string> {
  const tables = await db.kysely.introspection.getTables()
  const parts: string[] = []
  for (const table of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(
      db.kysely,
    )
    parts.push(`${table.name}: ${JSON.stringify(rows.rows)}`)
  }
  return parts.join('\n')
}

/** Raw bytes of the SQLite database and its write-ahead log, as text. */
export function readSqliteFiles(dataDir: string): string {
  const base = join(dataDir, 'flagman.sqlite')
  let text = ''
  for (const file of [base, `${base}-wal`, `${base}-journal`]) {
    try {
      text += readFileSync(file).toString('latin1')
    } catch {
      // The WAL and journal exist only at some moments.
    }
  }
  return text
}

/** A test server whose standard output and error a test can read. */
export interface LoggedServer extends TestServer {
  output(): string
}

/**
 * Starts `bin/flagman server` like `startTestServer`, but keeps its output readable and
 * logs at the most verbose level, so a test can assert what the server never writes.
 * `extraEnv` adds settings or overrides these.
 */
export async function startLoggedServer(
  dialect: Dialect,
  extraEnv: Record<string, string> = {},
): Promise<LoggedServer> {
  const scratch = await createScratchDatabase(dialect)
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-test-'))
  const env: NodeJS.ProcessEnv = {
    ...inheritedEnv(),
    FLAGMAN_HOST: '127.0.0.1',
    FLAGMAN_PORT: '0',
    FLAGMAN_DATA_DIR: dataDir,
    FLAGMAN_LOG_LEVEL: 'trace',
    FLAGMAN_ADMIN_LOGIN: ADMIN.login,
    FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
    FLAGMAN_ADMIN_EMAIL: ADMIN.email,
    FLAGMAN_LOGIN_MAX_ATTEMPTS: '1000',
    ...extraEnv,
  }
  if (scratch.url) env.FLAGMAN_DB = scratch.url
  else delete env.FLAGMAN_DB
  let log = ''
  const child = spawn(process.execPath, [FLAGMAN_BIN, 'server'], { env, stdio: 'pipe' })
  child.stdout.on('data', (chunk: Buffer) => (log += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (log += chunk.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 30_000)
    child.stdout.on('data', () => {
      const match = /is listening on (http:\/\/\S+)/.exec(log)
      if (match?.[1]) {
        clearTimeout(timer)
        resolve(match[1])
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${log}`))
    })
  })
  await createApiClient({ baseUrl: url }).call(login, {
    body: { auth: ADMIN.login, password: ADMIN.password },
  })
  const server: LoggedServer = {
    dialect,
    url,
    dataDir,
    env,
    anonymous: createApiClient({ baseUrl: url }),
    signIn: async (auth, password) => cookieClient(url, await sessionCookie(url, auth, password)),
    admin: () => server.signIn(ADMIN.login, ADMIN.password),
    fetch: (path, init) => fetch(`${url}${path}`, init),
    output: () => log,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve))
        child.kill('SIGTERM')
        await exited
      }
      await scratch.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
  return server
}

/** One request and its answer, as a recording wrapper saw them. */
export interface Exchange {
  method: string
  path: string
  status: number
  headers: string
  text: string
}

/** Wraps `http` against a server and keeps every answer (status, headers, body). */
export class Recorder {
  readonly exchanges: Exchange[] = []

  constructor(private readonly baseUrl: string) {}

  readonly send: Send = async (method, path, options = {}) => {
    const result = await http(this.baseUrl, method, path, options)
    const headers: string[] = []
    result.headers.forEach((value, name) => headers.push(`${name}: ${value}`))
    this.exchanges.push({
      method,
      path,
      status: result.status,
      headers: headers.join('\n'),
      text: result.text,
    })
    return result
  }

  /** The exchanges whose headers or body contain `needle`. */
  containing(needle: string): Exchange[] {
    return this.exchanges.filter((e) => e.text.includes(needle) || e.headers.includes(needle))
  }
}
