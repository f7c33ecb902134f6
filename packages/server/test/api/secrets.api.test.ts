import { randomBytes } from 'node:crypto'
import { readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { AccessKey, Environment } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENCRYPTION_KEY_FILE, SecretBox } from '../../src/lib/secret-box.js'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectError, expectNoContent, type HttpOptions, type HttpResult } from '../support/http.js'
import {
  dumpDatabase,
  generateSshKeys,
  ProjectResources,
  readSqliteFiles,
  Recorder,
  startLoggedServer,
  type LoggedServer,
} from '../support/resources.js'

/** A World whose every request, sign-ins included, goes through the recorder. */
class RecordedWorld extends World {
  constructor(
    server: LoggedServer,
    private readonly recorder: Recorder,
  ) {
    super(server)
  }

  override request(method: string, path: string, options: HttpOptions = {}): Promise<HttpResult> {
    return this.recorder.send(method, path, options)
  }
}

/**
 * The forms a secret could leak in: as sent, JSON-escaped (a key's newlines), base64
 * (how the compatible server used to store secrets), and every line of a multi-line
 * secret on its own (a body could carry a key re-wrapped).
 */
function leakForms(secret: string): string[] {
  const forms = new Set([
    secret,
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
  ])
  for (const line of secret.split('\n')) {
    if (line.length >= 16 && !line.startsWith('-----')) forms.add(line)
  }
  return [...forms]
}

describe.each(dialects())('secrets never leave the server on %s', (dialect) => {
  let server: LoggedServer
  let recorder: Recorder
  let world: RecordedWorld
  let admin: Person
  let guest: Person
  let db: Db
  let p: ProjectResources
  let asGuest: ProjectResources
  const tag = randomBytes(6).toString('hex')
  const ssh = generateSshKeys(`passphrase-${tag}-Zq`)
  /** Everything secret this scenario sends, by what it is. */
  const plaintexts: Record<string, string> = {
    'private key': ssh.plain,
    'encrypted private key': ssh.encrypted,
    'RSA private key': ssh.rsaPem,
    passphrase: ssh.passphrase,
    'wrong passphrase': `wrong-passphrase-${tag}`,
    'ssh login': `ssh-login-${tag}`,
    'key password': `key-password-${tag}-Xy`,
    'overridden password': `override-password-${tag}-Wv`,
    'name-only update password': `ignored-password-${tag}-Uu`,
    'var secret': `var-secret-${tag}-Ts`,
    'env secret': `env-secret-${tag}-Sr`,
    'updated env secret': `updated-secret-${tag}-Rq`,
    'refused secret': `refused-secret-${tag}-Qp`,
  }

  beforeAll(async () => {
    server = await startLoggedServer(dialect)
    recorder = new Recorder(server.url)
    world = new RecordedWorld(server, recorder)
    admin = await world.admin()
    db = await world.openDb()
    guest = await world.newUser()
    const project = await world.newProject()
    await world.addMember(project.id, guest.id, 'guest')
    p = new ProjectResources(recorder.send, admin.as, project.id)
    asGuest = new ProjectResources(recorder.send, guest.as, project.id)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  it('stores them, but no answer, database row or log line contains them', async () => {
    const s = (name: string): string => {
      const value = plaintexts[name]
      if (value === undefined) throw new Error(`no plaintext named ${name}`)
      return value
    }

    // Keys of every kind, with every secret field filled.
    const sshKey = await p.sshKey('deploy key', s('private key'), '', s('ssh login'))
    const encKey = await p.sshKey('encrypted key', s('encrypted private key'), s('passphrase'))
    const pemKey = await p.sshKey('rsa key', s('RSA private key'))
    const lpKey = await p.loginPasswordKey('become', s('key password'), s('ssh login'))
    const overridden = await p.loginPasswordKey('rotated', s('key password'))

    // Refused attempts carry secrets too; their errors must not repeat them.
    expectError(
      await p.request('POST', '/keys', {
        name: 'wrong',
        type: 'ssh',
        project_id: p.projectId,
        ssh: { private_key: s('encrypted private key'), passphrase: s('wrong passphrase') },
      }),
      400,
    )
    expectError(
      await p.request('POST', '/keys', {
        name: 'junk',
        type: 'ssh',
        project_id: p.projectId,
        ssh: { private_key: `${s('refused secret')}\n${s('private key')}` },
      }),
      400,
    )
    // A field the key does not declare is ignored: never stored, never echoed, never logged.
    const extra = await p.request('POST', '/keys', {
      name: 'extra',
      type: 'login_password',
      project_id: p.projectId,
      login_password: { password: s('key password'), token: s('refused secret') },
    })
    expect(extra.status).toBe(201)

    // A name-only update that sends a secret anyway, then a real override.
    expectNoContent(
      await p.request('PUT', `/keys/${lpKey.id}`, {
        id: lpKey.id,
        project_id: p.projectId,
        name: 'become renamed',
        type: 'login_password',
        login_password: { login: 'x', password: s('name-only update password') },
      }),
    )
    expectNoContent(
      await p.request('PUT', `/keys/${overridden.id}`, {
        id: overridden.id,
        project_id: p.projectId,
        name: 'rotated',
        type: 'login_password',
        override_secret: true,
        login_password: { login: 'ops', password: s('overridden password') },
      }),
    )

    // Resources that use the keys, and an environment with secrets of both kinds.
    const repo = await p.repository('app', sshKey.id)
    const inv = await p.inventory('hosts', encKey.id, { become_key_id: lpKey.id })
    const env = await p.environment('production', {
      secrets: [
        { operation: 'create', type: 'var', name: 'db_password', secret: s('var secret') },
        { operation: 'create', type: 'env', name: 'API_TOKEN', secret: s('env secret') },
      ],
    })
    const token = env.secrets?.find((x) => x.name === 'API_TOKEN')
    if (!token) throw new Error('the environment secret was not created')
    expectNoContent(
      await p.request('PUT', `/environment/${env.id}`, {
        id: env.id,
        project_id: p.projectId,
        name: 'production',
        json: '{}',
        env: '{}',
        secrets: [
          {
            operation: 'update',
            id: token.id,
            type: 'env',
            name: 'API_TOKEN',
            secret: s('updated env secret'),
          },
        ],
      }),
    )
    expectError(
      await p.request('POST', '/environment', {
        name: 'refused',
        project_id: p.projectId,
        json: 'not json',
        secrets: [{ operation: 'create', type: 'var', name: 'x', secret: s('refused secret') }],
      }),
      400,
    )
    expect((await p.request('DELETE', `/keys/${sshKey.id}`)).body).toMatchObject({ inUse: true })

    // Every read a member can make, as the admin and as a guest.
    for (const who of [p, asGuest]) {
      for (const query of ['', '?sort=type', '?sort=name&order=desc']) {
        await who.list(`/keys${query}`, AccessKey)
      }
      for (const key of [sshKey, encKey, pemKey, lpKey, overridden]) {
        await who.get(`/keys/${key.id}`, AccessKey)
        await who.refs(`/keys/${key.id}`)
      }
      await who.request('GET', '/repositories')
      await who.request('GET', `/repositories/${repo.id}`)
      await who.request('GET', '/inventory')
      await who.request('GET', `/inventory/${inv.id}`)
      await who.list('/environment', Environment)
      await who.get(`/environment/${env.id}`, Environment)
      await who.refs(`/environment/${env.id}`)
      for (const path of ['', '/events', '/events/last', '/users', '/role', '/views']) {
        expect((await who.request('GET', path)).status).toBe(200)
      }
      // A backup names the keys and the environment, never their secrets.
      const backup = await who.request('GET', '/backup')
      expect(backup.status).toBe(200)
      expect(backup.text).toContain('deploy key')
      expect(backup.text).toContain('production')
      // An environment secret is not reachable as a key.
      expectError(await who.request('GET', `/keys/${token.id}`), 404)
    }
    for (const path of ['/api/events', '/api/events/last', '/api/projects', '/api/user']) {
      expect((await world.request('GET', path, { as: admin.as })).status).toBe(200)
    }

    // The scenario did reach the server: the secrets are stored, encrypted.
    const box = SecretBox.load(
      server.env.FLAGMAN_ACCESS_KEY_ENCRYPTION ?? '',
      server.dataDir,
      () => {},
    )
    const stored = await db.kysely
      .selectFrom('access_key')
      .select(['id', 'secret'])
      .where('project_id', '=', p.projectId)
      .execute()
    const decrypted = stored.map((row) => (row.secret ? box.decrypt(row.secret) : '')).join('\n')
    for (const name of [
      'private key',
      'passphrase',
      'key password',
      'overridden password',
      'var secret',
      'updated env secret',
    ]) {
      expect(decrypted, `${name} is stored`).toContain(JSON.stringify(s(name)).slice(1, -1))
    }
    // Not stored: a value sent without override, a refused one, a replaced one.
    for (const name of [
      'name-only update password',
      'refused secret',
      'env secret',
      'wrong passphrase',
    ]) {
      expect(decrypted, `${name} is not stored`).not.toContain(s(name))
    }
    for (const row of stored) {
      if (row.secret !== null) expect(row.secret).toMatch(/^v1:[A-Za-z0-9+/=]+$/)
    }

    // Nothing secret in any answer, its headers included. The scan does see what is
    // returned: the keys' names are in many answers.
    expect(recorder.exchanges.length).toBeGreaterThan(60)
    expect(recorder.containing('become renamed').length).toBeGreaterThan(4)
    const database = await dumpDatabase(db)
    const files = dialect === 'sqlite' ? readSqliteFiles(server.dataDir) : ''
    expect(database).toContain('API_TOKEN')
    const log = server.output()
    expect(log).toContain('is listening on')
    // Without a configured key the server made one, said where, and never shows it.
    if (!server.env.FLAGMAN_ACCESS_KEY_ENCRYPTION) {
      const keyFile = join(server.dataDir, ENCRYPTION_KEY_FILE)
      expect(log).toContain(`Generated the key that encrypts stored secrets in ${keyFile}`)
      expect(statSync(keyFile).mode & 0o777).toBe(0o600)
      const encryptionKey = readFileSync(keyFile, 'utf8').trim()
      expect(Buffer.from(encryptionKey, 'base64')).toHaveLength(32)
      expect(log).not.toContain(encryptionKey)
      expect(recorder.containing(encryptionKey)).toEqual([])
      expect(database).not.toContain(encryptionKey)
    }
    for (const [name, secret] of Object.entries(plaintexts)) {
      for (const form of leakForms(secret)) {
        const leaks = recorder.containing(form).map((e) => `${e.method} ${e.path} → ${e.status}`)
        expect(leaks, `${name} in an answer`).toEqual([])
        expect(database.includes(form), `${name} in the database`).toBe(false)
        expect(files.includes(form), `${name} in the SQLite files`).toBe(false)
        expect(log.includes(form), `${name} in the server log`).toBe(false)
      }
    }
  })
})
