import { randomBytes } from 'node:crypto'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Environment, ProjectBackup } from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/lib/secret-box.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  dumpDatabase,
  ProjectResources,
  projectRows,
  readSqliteFiles,
  Recorder,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

const JSON_HEADERS = { 'Content-Type': 'application/json' }
const TOO_DEEP = /^JSON nesting is too deep \(at most 100 levels/

/** `[[[…]]]` or `{"a":{"a":…}}` nested `depth` levels. */
function nested(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array'
    ? `${'['.repeat(depth)}${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** The permission bits of a file or folder. */
function modeOf(path: string): string {
  return (statSync(path).mode & 0o777).toString(8)
}

describe.each(dialects())('platform hardening on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let cast: Cast
  let db: Db
  let box: SecretBox
  let recorder: Recorder
  let p: ProjectResources
  const scratchFolders: string[] = []

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    const project = await world.newProject()
    cast = await castFor(world, project.id)
    recorder = new Recorder(server.url)
    p = new ProjectResources(recorder.send, admin.as, project.id)
    db = await world.openDb()
    box = SecretBox.load(server.env.FLAGMAN_ACCESS_KEY_ENCRYPTION ?? '', server.dataDir, () => {})
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    for (const folder of scratchFolders) rmSync(folder, { recursive: true, force: true })
  })

  function scratchFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'flagman-attack-'))
    scratchFolders.push(folder)
    return folder
  }

  describe('deeply nested JSON', () => {
    const bodies: Array<[string, string]> = [
      ['5,000 nested arrays', nested(5_000, 'array')],
      ['5,000 nested objects', nested(5_000, 'object')],
      ['100,000 nested arrays', nested(100_000, 'array')],
      ['100,000 nested objects', nested(100_000, 'object')],
      [
        '100,000 levels inside a sign-in body',
        `{"auth":"admin","password":"x","extra":${nested(100_000, 'array')}}`,
      ],
    ]

    it.each(bodies)(
      'refuses %s on sign-in with 400, and the server keeps answering',
      async (_label, raw) => {
        const result = await world.request('POST', '/api/auth/login', {
          raw,
          headers: JSON_HEADERS,
        })
        expectError(result, 400, TOO_DEEP)
        expect((await server.fetch('/api/ping')).status).toBe(200)
      },
    )

    it.each(bodies)(
      'refuses %s on a signed-in write with 400 and writes nothing',
      async (_label, raw) => {
        const before = await projectRows(db, 'environment', p.projectId)
        const options: HttpOptions = { as: admin.as, raw, headers: JSON_HEADERS }
        expectError(await world.request('POST', `${p.base}/environment`, options), 400, TOO_DEEP)
        expectError(await world.request('POST', '/api/projects', options), 400, TOO_DEEP)
        expect(await projectRows(db, 'environment', p.projectId)).toBe(before)
        expect((await server.fetch('/api/ping')).status).toBe(200)
      },
    )

    it('counts only brackets outside strings, and allows 100 levels', async () => {
      // Brackets and escaped quotes inside a string are text, not nesting.
      const password = `"\\"${'['.repeat(1_000)}"`
      const signIn = await world.request('POST', '/api/auth/login', {
        raw: `{"auth":"admin","password":${password}}`,
        headers: JSON_HEADERS,
      })
      expect(signIn.status, signIn.text).toBe(401)
      // 100 levels in all (the body itself is the first) reach sign-in; 101 do not.
      const at = (depth: number) =>
        world.request('POST', '/api/auth/login', {
          raw: `{"auth":"admin","password":"x","extra":${nested(depth - 1, 'array')}}`,
          headers: JSON_HEADERS,
        })
      const allowed = await at(100)
      expect(allowed.status, allowed.text).toBe(401)
      expectError(await at(101), 400, TOO_DEEP)
    })

    it('refuses environment variables nested too deeply inside their JSON text', async () => {
      const before = await projectRows(db, 'environment', p.projectId)
      const deep = `{"a":${nested(5_000, 'array')}}`
      for (const field of ['json', 'env']) {
        const result = await p.request('POST', '/environment', {
          name: unique('deep'),
          project_id: p.projectId,
          json: '{}',
          [field]: deep,
        })
        expectError(result, 400, /nesting is too deep/)
      }
      expect(await projectRows(db, 'environment', p.projectId)).toBe(before)
    })
  })

  describe('environment password', () => {
    /** The stored column of an environment. */
    async function storedPassword(id: number): Promise<string | null> {
      const row = await db.kysely
        .selectFrom('environment')
        .select('password')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
      return row.password
    }

    async function expectNowhere(secret: string): Promise<void> {
      expect(recorder.containing(secret).map((e) => `${e.method} ${e.path}`)).toEqual([])
      expect((await dumpDatabase(db)).includes(secret), 'in the database').toBe(false)
      if (dialect === 'sqlite') {
        expect(readSqliteFiles(server.dataDir).includes(secret), 'in the SQLite files').toBe(false)
      }
    }

    function put(env: Environment, fields: Record<string, unknown>) {
      const { secrets: _secrets, ...rest } = env
      return p.request('PUT', `/environment/${env.id}`, { ...rest, ...fields })
    }

    it('is stored encrypted and never returned to owners, guests or in backups', async () => {
      const secret = `env-password-${unique('s')}-Qz`
      const created = await p.environment(unique('pw'), { password: secret })
      expect(created.password).toBe('')
      const stored = await storedPassword(created.id)
      expect(stored).not.toBeNull()
      expect(box.decrypt(stored!)).toBe(secret)

      const guest = new ProjectResources(recorder.send, cast.guest.as, p.projectId)
      for (const reader of [p, guest]) {
        const one = await reader.get(`/environment/${created.id}`, Environment)
        expect(one.password).toBe('')
        const listed = await reader.list('/environment', Environment)
        expect(listed.find((e) => e.id === created.id)?.password).toBe('')
      }
      const backup = await p.get('/backup', ProjectBackup)
      const exported = backup.environments.find((e) => e.name === created.name)
      expect(exported).toBeDefined()
      expect(exported?.password ?? null).toBeNull()
      await expectNowhere(secret)
    })

    it('keeps, replaces and clears the password through updates', async () => {
      const first = `first-password-${unique('s')}`
      const second = `second-password-${unique('s')}`
      const env = await p.environment(unique('rotate'), { password: first })

      // What a client read and sends back (`""`), null and an omitted field keep it.
      expectNoContent(await put(env, { password: '' }))
      expectNoContent(await put(env, { password: null }))
      const { password: _omitted, ...withoutPassword } = env
      expectNoContent(await put(withoutPassword as Environment, {}))
      expect(box.decrypt((await storedPassword(env.id))!)).toBe(first)

      expectNoContent(await put(env, { password: second }))
      expect(box.decrypt((await storedPassword(env.id))!)).toBe(second)
      expect((await p.get(`/environment/${env.id}`, Environment)).password).toBe('')

      // A new value together with clearing is refused and changes nothing.
      const before = await projectRows(db, 'environment', p.projectId)
      expectError(
        await put(env, { password: 'third', clear_password: true }),
        400,
        /either a new password or clear_password/,
      )
      expectError(await put(env, { clear_password: 'yes' }), 400, /clear_password/)
      expect(await projectRows(db, 'environment', p.projectId)).toBe(before)

      expectNoContent(await put(env, { clear_password: true }))
      expect(await storedPassword(env.id)).toBeNull()
      expect((await p.get(`/environment/${env.id}`, Environment)).password).toBeNull()
      await expectNowhere(first)
      await expectNowhere(second)
    })

    it('restores a password from a backup file encrypted', async () => {
      const secret = `restored-password-${unique('s')}`
      const backup = {
        meta: { name: unique('restored') },
        environments: [{ name: 'prod', password: secret, json: '{}' }],
      }
      const result = await recorder.send('POST', '/api/projects/restore', {
        as: admin.as,
        json: backup,
      })
      expect(result.status, result.text).toBe(200)
      const projectId = (result.body as { id: number }).id
      const row = await db.kysely
        .selectFrom('environment')
        .select(['id', 'password'])
        .where('project_id', '=', projectId)
        .where('name', '=', 'prod')
        .executeTakeFirstOrThrow()
      expect(box.decrypt(row.password!)).toBe(secret)
      await expectNowhere(secret)
    })

    it('encrypts passwords an earlier version stored in plain text when the server starts', async () => {
      const legacy = `legacy-password-${unique('s')}`
      // A plain value that merely looks like the encrypted form is plain text too.
      const lookalike = 'v1:not-really-encrypted'
      // Encrypted under another key (a key that was changed): left alone, never wrapped again.
      const foreign = SecretBox.fromBase64(randomBytes(32).toString('base64')).encrypt('x')
      const ids: number[] = []
      for (const password of [legacy, lookalike, '', foreign]) {
        ids.push(
          await insertReturningId(db, 'environment', {
            project_id: p.projectId,
            name: unique('legacy'),
            password,
            json: '{}',
            created: nowIso(),
          }),
        )
      }
      const encryptedBefore = await storedPassword(
        (await p.environment(unique('kept'), { password: 'kept-password' })).id,
      )

      await db.destroy()
      await server.kill?.('SIGTERM')
      server = await startTestServer(dialect, {}, { reuse: server })
      world = new World(server)
      admin = await world.admin()
      recorder = new Recorder(server.url)
      p = new ProjectResources(recorder.send, admin.as, p.projectId)
      db = await world.openDb()

      expect(box.decrypt((await storedPassword(ids[0]!))!)).toBe(legacy)
      expect(box.decrypt((await storedPassword(ids[1]!))!)).toBe(lookalike)
      expect(await storedPassword(ids[2]!)).toBeNull()
      expect(await storedPassword(ids[3]!)).toBe(foreign)
      // Values already encrypted are left as they are.
      const kept = await db.kysely
        .selectFrom('environment')
        .select('password')
        .where('password', '=', encryptedBefore)
        .execute()
      expect(kept).toHaveLength(1)
      expect((await p.get(`/environment/${ids[0]}`, Environment)).password).toBe('')
      await expectNowhere(legacy)
    })
  })

  describe('data folder permissions', () => {
    async function startOn(dataDir: string): Promise<TestServer> {
      const started = await startTestServer(dialect, { FLAGMAN_DATA_DIR: dataDir })
      // Some writes, so that SQLite has its write-ahead log and shared-memory files.
      const w = new World(started)
      const project = await w.newProject()
      const owner = await w.admin()
      await new ProjectResources(w.request.bind(w), owner.as, project.id).environment('e', {
        password: 'p',
      })
      return started
    }

    function expectPrivate(dataDir: string): void {
      expect(modeOf(dataDir), 'data folder').toBe('700')
      const files = ['access-key-encryption']
      if (dialect === 'sqlite') {
        files.push('flagman.sqlite', 'flagman.sqlite-wal', 'flagman.sqlite-shm')
      }
      for (const file of files) {
        const path = join(dataDir, file)
        expect(existsSync(path), `${file} exists`).toBe(true)
        expect(modeOf(path), file).toBe('600')
      }
    }

    it('creates a new data folder 0700 and its files 0600', async () => {
      const dataDir = join(scratchFolder(), 'nested', 'data')
      const started = await startOn(dataDir)
      try {
        expectPrivate(dataDir)
      } finally {
        await started.stop()
      }
    })

    it('restricts an existing data folder and database files that others could read', async () => {
      const dataDir = join(scratchFolder(), 'data')
      mkdirSync(dataDir, { mode: 0o755 })
      chmodSync(dataDir, 0o755)
      const keyFile = join(dataDir, 'access-key-encryption')
      writeFileSync(keyFile, `${randomBytes(32).toString('base64')}\n`, { mode: 0o644 })
      chmodSync(keyFile, 0o644)
      if (dialect === 'sqlite') {
        // An empty file is a new database to SQLite.
        writeFileSync(join(dataDir, 'flagman.sqlite'), '', { mode: 0o644 })
        chmodSync(join(dataDir, 'flagman.sqlite'), 0o644)
      }
      const started = await startOn(dataDir)
      try {
        expectPrivate(dataDir)
      } finally {
        await started.stop()
      }
    })
  })

  describe('security headers', () => {
    // A console folder of its own, so the page's answers do not depend on a console build.
    let site: TestServer
    let siteWorld: World
    const PLACEHOLDER = '__FLAGMAN_CSP_NONCE__'
    beforeAll(async () => {
      const webDir = scratchFolder()
      mkdirSync(join(webDir, 'assets'))
      writeFileSync(
        join(webDir, 'index.html'),
        `<!doctype html><html><head><script type="module" nonce="${PLACEHOLDER}" ` +
          `src="/assets/index-abc123.js"></script><meta property="csp-nonce" ` +
          `nonce="${PLACEHOLDER}"></head><body><div id="root"></div></body></html>`,
      )
      writeFileSync(join(webDir, 'assets', 'index-abc123.js'), 'export {}\n')
      writeFileSync(join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
      site = await startTestServer(dialect, { FLAGMAN_WEB_DIR: webDir })
      siteWorld = new World(site)
    })
    afterAll(async () => {
      await site?.stop()
    })

    const expected = {
      'content-security-policy': expect.stringContaining("frame-ancestors 'none'"),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    }
    /** The policy of every answer but the console's page: no nonce, nothing inline. */
    const STRICT_POLICY =
      "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
      "font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
      "form-action 'self'; frame-ancestors 'none'"
    /** The console page's policy: the same, with the answer's nonce in `style-src`. */
    const PAGE_POLICY = new RegExp(
      `^${STRICT_POLICY.replace("style-src 'self'", "style-src 'self' 'nonce-([A-Za-z0-9+/]{22,}={0,2})'")}$`,
    )

    it.each([
      ['GET', '/api/ping'],
      ['GET', '/api/user'],
      ['GET', '/api/no-such-thing'],
      ['GET', '/api/project/%zz'],
      ['POST', '/api/auth/login'],
      ['GET', '/favicon.svg'],
      ['GET', '/assets/index-abc123.js'],
      ['GET', '/missing.js'],
    ])('are on the answer to %s %s, without a nonce', async (method, path) => {
      const result = await siteWorld.request(method, path, {
        ...(method === 'POST' ? { json: { auth: 'nobody', password: 'x' } } : {}),
      })
      const headers = Object.fromEntries(result.headers.entries())
      expect(headers).toMatchObject(expected)
      expect(headers['content-security-policy']).toBe(STRICT_POLICY)
    })

    it.each(['/', '/project/1/history', '/index.html'])(
      'give the console page at %s a fresh style nonce, never cached',
      async (path) => {
        const nonces: string[] = []
        for (let load = 0; load < 2; load++) {
          const result = await siteWorld.request('GET', path)
          expect(result.status).toBe(200)
          const headers = Object.fromEntries(result.headers.entries())
          expect(headers).toMatchObject(expected)
          expect(headers['cache-control']).toBe('no-store')
          const policy = headers['content-security-policy'] ?? ''
          expect(policy).not.toContain('unsafe-inline')
          const nonce = PAGE_POLICY.exec(policy)?.[1]
          expect(nonce, policy).toBeDefined()
          expect(Buffer.from(nonce ?? '', 'base64').length).toBeGreaterThanOrEqual(16)
          // The page carries the nonce of its own answer, in every place the build marked.
          expect(result.text).not.toContain(PLACEHOLDER)
          expect(result.text.split(`nonce="${nonce}"`)).toHaveLength(3)
          nonces.push(nonce ?? '')
        }
        expect(nonces[0]).not.toBe(nonces[1])
      },
    )

    it('keep hashed files cacheable', async () => {
      const result = await siteWorld.request('GET', '/assets/index-abc123.js')
      expect(result.status).toBe(200)
      expect(result.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    })

    it('are on answers with a session too', async () => {
      const result = await world.request('GET', '/api/projects', { as: admin.as })
      expect(result.status).toBe(200)
      expect(Object.fromEntries(result.headers.entries())).toMatchObject(expected)
      expect(result.headers.get('content-security-policy')).toBe(STRICT_POLICY)
    })
  })
})
