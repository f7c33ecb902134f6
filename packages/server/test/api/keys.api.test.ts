import { AccessKey, Event, MAX_SECRET_LENGTH, type Refs } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/lib/secret-box.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import {
  expectBody,
  expectError,
  expectNoContent,
  type HttpOptions,
  type HttpResult,
} from '../support/http.js'
import {
  castFor,
  expectRefused,
  generateSshKeys,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
  type SshKeys,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

const NO_REFS: Refs = {
  templates: [],
  inventories: [],
  repositories: [],
  integrations: [],
  schedules: [],
}

/** What every key looks like on the wire: the secret parts are always blank. */
function blankKey(fields: { id: number; name: string; type: string; project_id: number }) {
  return {
    ...fields,
    login_password: { login: '', password: '' },
    ssh: { login: '', passphrase: '', private_key: '' },
    string: '',
    override_secret: false,
  }
}

/** Sets the bcrypt rounds of a passphrase-protected OpenSSH key (the key stays well-formed). */
function withKdfRounds(key: string, rounds: number): string {
  const lines = key.trim().split('\n')
  const body = Buffer.from(lines.slice(1, -1).join(''), 'base64')
  let at = 'openssh-key-v1\0'.length
  for (let i = 0; i < 2; i++) at += 4 + body.readUInt32BE(at) // cipher name, KDF name
  const options = at + 4
  body.writeUInt32BE(rounds, options + 4 + body.readUInt32BE(options))
  const base64 = body.toString('base64').match(/.{1,70}/g) ?? []
  return [lines[0], ...base64, lines[lines.length - 1]].join('\n') + '\n'
}

interface Der {
  tag: number
  /** Children of a SEQUENCE, or the bytes of anything else. */
  value: Der[] | Buffer
}

function readDer(bytes: Buffer): Der[] {
  const nodes: Der[] = []
  let at = 0
  while (at < bytes.length) {
    const tag = bytes[at] ?? 0
    let length = bytes[at + 1] ?? 0
    at += 2
    if (length & 0x80) {
      const count = length & 0x7f
      length = bytes.subarray(at, at + count).reduce((n, b) => n * 256 + b, 0)
      at += count
    }
    const content = bytes.subarray(at, at + length)
    nodes.push({ tag, value: tag === 0x30 ? readDer(content) : content })
    at += length
  }
  return nodes
}

function writeDer(nodes: Der[]): Buffer {
  return Buffer.concat(
    nodes.map((node) => {
      const content = Array.isArray(node.value) ? writeDer(node.value) : node.value
      const length =
        content.length < 0x80
          ? Buffer.from([content.length])
          : Buffer.from([0x82, content.length >> 8, content.length & 0xff])
      return Buffer.concat([Buffer.from([node.tag]), length, content])
    }),
  )
}

/** Sets the PBKDF2 iteration count of an encrypted PKCS#8 key. */
function withPbkdf2Iterations(key: string, iterations: number): string {
  const lines = key.trim().split('\n')
  const der = readDer(Buffer.from(lines.slice(1, -1).join(''), 'base64'))
  const child = (node: Der | undefined, index: number): Der => {
    const found = Array.isArray(node?.value) ? node.value[index] : undefined
    if (!found) throw new Error('unexpected PKCS#8 structure')
    return found
  }
  // EncryptedPrivateKeyInfo → algorithm → PBES2 params → KDF → PBKDF2 params → iterations
  const count = child(child(child(child(child(der[0], 0), 1), 0), 1), 1)
  // DER integers are minimal and signed: no leading zero byte unless the high bit is set.
  let hex = iterations.toString(16)
  if (hex.length % 2) hex = `0${hex}`
  if (parseInt(hex.slice(0, 2), 16) >= 0x80) hex = `00${hex}`
  count.value = Buffer.from(hex, 'hex')
  const base64 =
    writeDer(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  return [lines[0], ...base64, lines[lines.length - 1]].join('\n') + '\n'
}

describe.each(dialects())('key store on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let box: SecretBox
  let ssh: SshKeys
  let p: ProjectResources
  let cast: Cast

  beforeAll(async () => {
    ssh = generateSshKeys()
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    cast = await castFor(world, project.id)
    box = SecretBox.load(server.env.FLAGMAN_ACCESS_KEY_ENCRYPTION ?? '', server.dataDir, () => {})
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  async function storedRow(id: number) {
    return db.kysely.selectFrom('access_key').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** The decrypted secret of a key as stored, or null when none is stored. */
  async function storedSecret(id: number): Promise<unknown> {
    const row = await storedRow(id)
    if (!row) throw new Error(`key ${id} is not stored`)
    return row.secret === null ? null : JSON.parse(box.decrypt(row.secret))
  }

  async function keyRows(): Promise<string> {
    return projectRows(db, 'access_key', p.projectId)
  }

  async function eventDescriptions(): Promise<string[]> {
    const events = await p.list('/events', Event)
    return events.map((e) => e.description)
  }

  it('creates, reads and lists keys of every type with their secrets blank', async () => {
    const none = await p.key(unique('none'))
    const lp = await p.loginPasswordKey(unique('lp'), 'lp-password-1', 'deployer')
    const plain = await p.sshKey(unique('ssh'), ssh.plain, '', 'git')
    const encrypted = await p.sshKey(unique('sshenc'), ssh.encrypted, ssh.passphrase, 'root')
    const pem = await p.sshKey(unique('pem'), ssh.rsaPem)

    const expected = [
      [none, 'none'],
      [lp, 'login_password'],
      [plain, 'ssh'],
      [encrypted, 'ssh'],
      [pem, 'ssh'],
    ] as const
    for (const [key, type] of expected) {
      const wire = blankKey({ id: key.id, name: key.name, type, project_id: p.projectId })
      expect(key).toEqual(wire)
      expect(await p.get(`/keys/${key.id}`, AccessKey)).toEqual(wire)
    }

    const list = await p.list('/keys', AccessKey)
    for (const [key, type] of expected) {
      const wire = blankKey({ id: key.id, name: key.name, type, project_id: p.projectId })
      // Only a key without a stored secret is flagged `empty`.
      expect(list).toContainEqual(type === 'none' ? { ...wire, empty: true } : wire)
    }

    // Stored encrypted, and decrypting gives back exactly what was sent.
    expect((await storedRow(none.id))?.secret).toBeNull()
    for (const key of [lp, plain, encrypted, pem]) {
      expect((await storedRow(key.id))?.secret).toMatch(/^v1:/)
    }
    expect(await storedSecret(lp.id)).toEqual({
      type: 'login_password',
      login: 'deployer',
      password: 'lp-password-1',
    })
    expect(await storedSecret(encrypted.id)).toEqual({
      type: 'ssh',
      login: 'root',
      passphrase: ssh.passphrase,
      private_key: ssh.encrypted,
    })
    expect(await eventDescriptions()).toContain(`Access Key ${plain.name} created`)
  })

  it('trims the name and keeps a secret that is not overridden on update', async () => {
    const key = await p.sshKey(unique('keep'), ssh.plain)
    const before = await storedRow(key.id)
    const renamed = unique('renamed')
    // The console sends the blank secret and may even send another type: both are ignored.
    expectNoContent(
      await p.request('PUT', `/keys/${key.id}`, {
        id: key.id,
        project_id: p.projectId,
        name: `  ${renamed}  `,
        type: 'login_password',
        login_password: { login: '', password: '' },
        ssh: { login: '', passphrase: '', private_key: '' },
      }),
    )
    const after = await storedRow(key.id)
    expect(after).toEqual({ ...before, name: renamed })
    expect(await p.get(`/keys/${key.id}`, AccessKey)).toEqual(
      blankKey({ id: key.id, name: renamed, type: 'ssh', project_id: p.projectId }),
    )

    // override_secret: false is the same as leaving it out.
    expectNoContent(
      await p.request('PUT', `/keys/${key.id}`, {
        id: key.id,
        project_id: p.projectId,
        name: renamed,
        type: 'none',
        override_secret: false,
      }),
    )
    expect(await storedRow(key.id)).toEqual(after)
    expect(await eventDescriptions()).toContain(`Access Key ${renamed} updated`)
  })

  it('replaces type and secret when override_secret is set', async () => {
    const key = await p.sshKey(unique('over'), ssh.plain)
    expectNoContent(
      await p.request('PUT', `/keys/${key.id}`, {
        id: key.id,
        project_id: p.projectId,
        name: key.name,
        type: 'login_password',
        override_secret: true,
        login_password: { login: 'ops', password: 'new-password-2' },
      }),
    )
    expect((await p.get(`/keys/${key.id}`, AccessKey)).type).toBe('login_password')
    expect(await storedSecret(key.id)).toEqual({
      type: 'login_password',
      login: 'ops',
      password: 'new-password-2',
    })

    // Overriding to `none` drops the stored secret.
    expectNoContent(
      await p.request('PUT', `/keys/${key.id}`, {
        id: key.id,
        project_id: p.projectId,
        name: key.name,
        type: 'none',
        override_secret: true,
      }),
    )
    expect((await p.get(`/keys/${key.id}`, AccessKey)).type).toBe('none')
    expect(await storedSecret(key.id)).toBeNull()
    expect(await p.list('/keys', AccessKey)).toContainEqual(
      expect.objectContaining({ id: key.id, empty: true }),
    )
  })

  it('validates the new secret of an override and changes nothing when it is refused', async () => {
    const key = await p.loginPasswordKey(unique('valid'), 'kept-password')
    const before = await keyRows()
    const attempts: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'ssh', ssh: { private_key: '' } }, /^private key can not be empty$/],
      [{ type: 'ssh', ssh: { private_key: 'nonsense' } }, /private key can not be used/],
      [{ type: 'login_password', login_password: { login: 'x' } }, /^password can not be empty$/],
    ]
    for (const [fields, message] of attempts) {
      const result = await p.request('PUT', `/keys/${key.id}`, {
        id: key.id,
        project_id: p.projectId,
        name: unique('never'),
        override_secret: true,
        ...fields,
      })
      expectError(result, 400, message)
    }
    expect(await keyRows()).toBe(before)
  })

  it('refuses SSH keys that can not be used, with a clear message, storing nothing', async () => {
    const before = await keyRows()
    const cases: Array<[Record<string, unknown> | null | undefined, RegExp]> = [
      [undefined, /^private key can not be empty$/],
      [null, /^private key can not be empty$/],
      [{ login: 'git' }, /^private key can not be empty$/],
      [{ private_key: '  \n ' }, /^private key can not be empty$/],
      [{ private_key: 'not a key at all' }, /not an SSH private key/],
      [{ private_key: ssh.plain.replace(/[A-Za-z]/g, 'A') }, /not an SSH private key/],
      [{ private_key: ssh.publicKey }, /public key/],
      [{ private_key: ssh.encrypted }, /encrypted: enter its passphrase/],
      [{ private_key: ssh.encrypted, passphrase: 'wrong passphrase' }, /passphrase does not open/],
    ]
    for (const [sshField, message] of cases) {
      const body = {
        name: unique('bad'),
        type: 'ssh',
        project_id: p.projectId,
        ...(sshField === undefined ? {} : { ssh: sshField }),
      }
      const result = await p.request('POST', '/keys', body)
      const error = expectError(result, 400, message)
      if (typeof sshField?.private_key === 'string' && sshField.private_key.trim()) {
        expect(error).toMatch(/^The private key can not be used: /)
      }
      // The message never quotes the key it refused.
      expect(result.text).not.toContain('PRIVATE KEY')
    }
    expect(await keyRows()).toBe(before)
  })

  it('refuses a passphrase-protected key whose KDF would tie up the server', async () => {
    // ssh-keygen's default is 16 rounds: rewriting that count leaves the key as it was.
    expect(withKdfRounds(ssh.encrypted, 16)).toBe(ssh.encrypted)
    const before = await keyRows()
    // Refused by the count alone: a derivation with 0x7fffffff rounds would outlast the test.
    for (const rounds of [129, 0x7fffffff]) {
      const result = await p.request('POST', '/keys', {
        name: unique('kdf'),
        type: 'ssh',
        project_id: p.projectId,
        ssh: { private_key: withKdfRounds(ssh.encrypted, rounds), passphrase: ssh.passphrase },
      })
      expectError(result, 400, new RegExp(`uses ${rounds} KDF rounds; at most 128`))
    }
    expect(await keyRows()).toBe(before)
  })

  it('opens encrypted PKCS#8 and PEM keys with their passphrase and refuses wrong ones', async () => {
    for (const [label, text] of [
      ['PKCS#8', ssh.pkcs8Encrypted],
      ['PEM', ssh.pemEncrypted],
    ] as const) {
      const key = await p.sshKey(unique('ec'), text, ssh.passphrase)
      expect(await storedSecret(key.id), label).toMatchObject({ private_key: text })
      const before = await keyRows()
      for (const [passphrase, message] of [
        ['not the passphrase', /passphrase does not open it/],
        ['', /encrypted: enter its passphrase/],
      ] as const) {
        const result = await p.request('POST', '/keys', {
          name: unique('ec'),
          type: 'ssh',
          project_id: p.projectId,
          ssh: { private_key: text, passphrase },
        })
        expectError(result, 400, message)
      }
      expect(await keyRows()).toBe(before)
      // The server is still there after a refusal.
      expect((await p.request('GET', '/keys')).status).toBe(200)
    }
  })

  it('refuses an encrypted PKCS#8 key whose iteration count would tie up the server', async () => {
    // Rewriting the count to what the key already uses leaves it valid.
    const same = withPbkdf2Iterations(ssh.pkcs8Encrypted, 2048)
    await p.sshKey(unique('p8'), same, ssh.passphrase)
    const before = await keyRows()
    // Refused by the count alone: a derivation of two billion iterations would outlast the test.
    const result = await p.request('POST', '/keys', {
      name: unique('p8'),
      type: 'ssh',
      project_id: p.projectId,
      ssh: {
        private_key: withPbkdf2Iterations(ssh.pkcs8Encrypted, 2_000_000_000),
        passphrase: ssh.passphrase,
      },
    })
    expectError(result, 400, /more than 250000 key derivation iterations/)
    expect(await keyRows()).toBe(before)
  })

  it('refuses login_password without a password, unknown types and empty names', async () => {
    const before = await keyRows()
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ type: 'login_password' }, /^password can not be empty$/],
      [{ type: 'login_password', login_password: { login: 'a' } }, /^password can not be empty$/],
      [
        { type: 'login_password', login_password: { login: 'a', password: '' } },
        /^password can not be empty$/,
      ],
      [{ type: 'string' }, /^type must be one of none, ssh, login_password$/],
      [{ type: undefined }, /type/],
      [{ name: '' }, /^name can not be empty$/],
      [{ name: '   ' }, /^name can not be empty$/],
      [{ name: 'x'.repeat(256) }, /at most 255 characters/],
    ]
    for (const [fields, message] of cases) {
      const body = { name: unique('k'), type: 'none', project_id: p.projectId, ...fields }
      expectError(await p.request('POST', '/keys', body), 400, message)
    }
    expect(await keyRows()).toBe(before)
  })

  it('insists that ids in the body match the URL', async () => {
    const key = await p.key(unique('ids'))
    const before = await keyRows()
    const other = await world.newProject()
    expectError(
      await p.request('POST', '/keys', { name: unique('x'), type: 'none', project_id: other.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('POST', '/keys', { name: unique('x'), type: 'none' }),
      400,
      'project_id is required',
    )
    const update = { id: key.id, project_id: p.projectId, name: unique('x'), type: 'none' }
    expectError(
      await p.request('PUT', `/keys/${key.id}`, { ...update, id: key.id + 1000 }),
      400,
      'Access Key ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/keys/${key.id}`, { ...update, project_id: other.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/keys/${key.id}`, { ...update, id: undefined }),
      400,
      'id is required',
    )
    expect(await keyRows()).toBe(before)
  })

  it('keeps environment secrets out of the key store', async () => {
    const env = await p.environment(unique('env'), {
      secrets: [{ operation: 'create', name: 'DB_PASSWORD', secret: 'hunter2', type: 'env' }],
    })
    const secretId = env.secrets?.[0]?.id
    if (!secretId) throw new Error('secret not created')
    const list = await p.list('/keys', AccessKey)
    expect(list.map((k) => k.id)).not.toContain(secretId)
    expect(list.map((k) => k.name)).not.toContain('DB_PASSWORD')
    for (const sort of ['name', 'type']) {
      const sorted = await p.list(`/keys?sort=${sort}&order=desc`, AccessKey)
      expect(sorted.map((k) => k.id)).not.toContain(secretId)
    }
    // Addressed as a key, a secret does not exist.
    expectError(await p.request('GET', `/keys/${secretId}`), 404)
    expectError(await p.request('GET', `/keys/${secretId}/refs`), 404)
    expectError(
      await p.request('PUT', `/keys/${secretId}`, {
        id: secretId,
        project_id: p.projectId,
        name: 'stolen',
        type: 'none',
        override_secret: true,
      }),
      404,
    )
    expectError(await p.request('DELETE', `/keys/${secretId}`), 404)
    expect((await storedRow(secretId))?.name).toBe('DB_PASSWORD')
  })

  it('sorts by name or type in either order and refuses other columns', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    // A new project comes with a "None" key; capitals sort differently per database.
    for (const key of await q.list('/keys', AccessKey)) {
      expectNoContent(await q.request('DELETE', `/keys/${key.id}`))
    }
    const c = await q.key('c-key')
    const a = await q.loginPasswordKey('a-key', 'pw')
    const b = await q.sshKey('b-key', ssh.plain)
    const d = await q.key('d-key')
    const ids = async (query: string) => (await q.list(`/keys${query}`, AccessKey)).map((k) => k.id)
    expect(await ids('')).toEqual([a.id, b.id, c.id, d.id])
    expect(await ids('?sort=name')).toEqual([a.id, b.id, c.id, d.id])
    expect(await ids('?sort=name&order=desc')).toEqual([d.id, c.id, b.id, a.id])
    expect(await ids('?order=desc')).toEqual([d.id, c.id, b.id, a.id])
    expect(await ids('?sort=name&order=sideways')).toEqual([a.id, b.id, c.id, d.id])
    // login_password < none < ssh; equal types keep id order.
    expect(await ids('?sort=type')).toEqual([a.id, c.id, d.id, b.id])
    expect(await ids('?sort=type&order=desc')).toEqual([b.id, c.id, d.id, a.id])
    for (const sort of ['created', 'secret', 'name;drop', '']) {
      expectError(await q.request('GET', `/keys?sort=${sort}`), 400, /invalid sort column/)
    }
  })

  it('lists what uses a key and refuses to delete it while it is used', async () => {
    const key = await p.sshKey(unique('used'), ssh.plain)
    const become = await p.loginPasswordKey(unique('become'), 'become-pw')
    const repo = await p.repository(unique('repo'), key.id)
    const inv = await p.inventory(unique('inv'), key.id, { become_key_id: become.id })
    const refs = await p.refs(`/keys/${key.id}`)
    expect(refs).toEqual({
      templates: [],
      repositories: [{ id: repo.id, name: repo.name }],
      inventories: [{ id: inv.id, name: inv.name }],
      integrations: [],
      schedules: [],
    })
    expect((await p.refs(`/keys/${become.id}`)).inventories).toEqual([
      { id: inv.id, name: inv.name },
    ])

    const before = await keyRows()
    for (const used of [key, become]) {
      const result = await p.request('DELETE', `/keys/${used.id}`)
      expect(result.status).toBe(400)
      expect(result.body).toEqual({
        error: 'Access Key is in use by one or more templates',
        inUse: true,
      })
    }
    expect(await keyRows()).toBe(before)

    // Once nothing uses them, they go.
    expectNoContent(await p.request('DELETE', `/inventory/${inv.id}`))
    expectNoContent(await p.request('DELETE', `/repositories/${repo.id}`))
    expect(await p.refs(`/keys/${key.id}`)).toEqual(NO_REFS)
    expectNoContent(await p.request('DELETE', `/keys/${key.id}`))
    expectNoContent(await p.request('DELETE', `/keys/${become.id}`))
    expect(await storedRow(key.id)).toBeUndefined()
    expectError(await p.request('GET', `/keys/${key.id}`), 404)
    expect((await p.list('/keys', AccessKey)).map((k) => k.id)).not.toContain(key.id)
    expect(await eventDescriptions()).toContain(`Access Key ${key.name} deleted`)
  })

  it('lists references by name, each once', async () => {
    const key = await p.loginPasswordKey(unique('shared'), 'shared-pw')
    const later = await p.repository(`zz-${unique('r')}`, key.id)
    const earlier = await p.repository(`aa-${unique('r')}`, key.id)
    // Used both to reach the hosts and to become: still one reference.
    const inv = await p.inventory(unique('inv'), key.id, { become_key_id: key.id })
    const refs = await p.refs(`/keys/${key.id}`)
    expect(refs.repositories).toEqual([
      { id: earlier.id, name: earlier.name },
      { id: later.id, name: later.name },
    ])
    expect(refs.inventories).toEqual([{ id: inv.id, name: inv.name }])
  })

  it('answers 404 for a key of another project and changes nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreign = await q.loginPasswordKey(unique('foreign'), 'foreign-pw')
    const before = await projectRows(db, 'access_key', project.id)
    const body = {
      id: foreign.id,
      project_id: p.projectId,
      name: 'taken',
      type: 'none',
      override_secret: true,
    }
    const attempts: HttpResult[] = [
      await p.request('GET', `/keys/${foreign.id}`),
      await p.request('GET', `/keys/${foreign.id}/refs`),
      await p.request('PUT', `/keys/${foreign.id}`, body),
      await p.request('DELETE', `/keys/${foreign.id}`),
      await p.request('GET', '/keys/999999999'),
      await p.request('DELETE', '/keys/999999999'),
    ]
    for (const result of attempts) expectError(result, 404)
    expect(await projectRows(db, 'access_key', project.id)).toBe(before)
  })

  it('lets every member read keys but only managers and owners change them', async () => {
    const key = await p.key(unique('perm'))
    const writes = (name: string) =>
      [
        ['POST', '/keys', { name, type: 'none', project_id: p.projectId }],
        ['PUT', `/keys/${key.id}`, { id: key.id, project_id: p.projectId, name, type: 'none' }],
        ['DELETE', `/keys/${key.id}`, undefined],
      ] as const
    const reads = ['/keys', `/keys/${key.id}`, `/keys/${key.id}/refs`]
    const before = await keyRows()
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        const result = await world.request('GET', `${p.base}${path}`, { as })
        expect(result.status, `${role} GET ${path}`).toBe(200)
      }
      for (const [method, path, json] of writes(unique(role))) {
        const result = await world.request(method, `${p.base}${path}`, { as, json })
        expectError(result, 403)
      }
    }
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`, { as: cast.outsider.as }), 404)
    }
    for (const [method, path, json] of writes(unique('outsider'))) {
      expectError(
        await world.request(method, `${p.base}${path}`, { as: cast.outsider.as, json }),
        404,
      )
    }
    expect(await keyRows()).toBe(before)

    const managed = await world.request('POST', `${p.base}/keys`, {
      as: cast.manager.as,
      json: { name: unique('mgr'), type: 'none', project_id: p.projectId },
    })
    const created = expectBody(managed, 201, AccessKey)
    const guestList = await world.request('GET', `${p.base}/keys`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(AccessKey)).map((k) => k.id)).toEqual(
      expect.arrayContaining([key.id, created.id]),
    )
  })
  it('stores the longest secret it accepts on every database and refuses a longer one', async () => {
    const longest = 'p'.repeat(MAX_SECRET_LENGTH)
    const key = await p.loginPasswordKey(unique('long'), longest)
    expect(await storedSecret(key.id)).toEqual({
      type: 'login_password',
      login: 'deploy',
      password: longest,
    })
    const sshKey = await p.key(unique('longssh'), {
      type: 'ssh',
      ssh: {
        login: 'l'.repeat(255),
        passphrase: 'q'.repeat(MAX_SECRET_LENGTH),
        private_key: ssh.plain.padEnd(MAX_SECRET_LENGTH, ' '),
      },
    })
    expect(((await storedSecret(sshKey.id)) as { passphrase: string }).passphrase).toHaveLength(
      MAX_SECRET_LENGTH,
    )
    const before = await keyRows()
    expectError(
      await p.request('POST', '/keys', {
        name: unique('toolong'),
        type: 'login_password',
        project_id: p.projectId,
        login_password: { login: 'a', password: `${longest}p` },
      }),
      400,
      'login_password.password is too long',
    )
    expect(await keyRows()).toBe(before)
  })

  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const key = await p.loginPasswordKey(unique('bad'), 'bad-password')
    const before = [await keyRows(), await projectRows(db, 'event', p.projectId)]
    const valid = {
      name: unique('valid'),
      type: 'login_password',
      project_id: p.projectId,
      login_password: { login: 'a', password: 'b' },
    }
    const update = { ...valid, id: key.id, override_secret: true }
    const mistyped: Array<Record<string, unknown>> = [
      { type: 3 },
      { type: 'SSH' },
      { login_password: 'a:b' },
      { login_password: { login: 'a', password: 5 } },
      { login_password: { login: 'l'.repeat(256), password: 'b' } },
      { type: 'ssh', ssh: 'key text' },
      { type: 'ssh', ssh: { private_key: 42 } },
      { type: 'ssh', ssh: { private_key: ssh.plain, passphrase: false } },
    ]
    type Case = [string, string, string, HttpOptions]
    const cases: Case[] = [
      ...malformedBodies(valid).map(([l, o]): Case => [`POST ${l}`, 'POST', '/keys', o]),
      ...malformedBodies(update).map(([l, o]): Case => [`PUT ${l}`, 'PUT', `/keys/${key.id}`, o]),
      ...mistyped.map((f): Case => [
        `POST ${JSON.stringify(f).slice(0, 80)}`,
        'POST',
        '/keys',
        { json: { ...valid, ...f } },
      ]),
      ...mistyped.map((f): Case => [
        `PUT ${JSON.stringify(f).slice(0, 80)}`,
        'PUT',
        `/keys/${key.id}`,
        { json: { ...update, ...f } },
      ]),
      [
        'PUT override_secret as text',
        'PUT',
        `/keys/${key.id}`,
        { json: { ...update, override_secret: 'yes' } },
      ],
      ['PUT id as text', 'PUT', `/keys/${key.id}`, { json: { ...update, id: String(key.id) } }],
      ['PUT huge id', 'PUT', `/keys/${key.id}`, { json: { ...update, id: 99_999_999_999 } }],
    ]
    for (const path of ['abc', '-1', '0', '99999999999', '2147483648']) {
      cases.push([`GET /keys/${path}`, 'GET', `/keys/${path}`, {}])
      cases.push([`PUT /keys/${path}`, 'PUT', `/keys/${path}`, { json: update }])
      cases.push([`DELETE /keys/${path}`, 'DELETE', `/keys/${path}`, {}])
      cases.push([`GET /keys/${path}/refs`, 'GET', `/keys/${path}/refs`, {}])
    }
    for (const [label, method, path, options] of cases) {
      expectRefused(
        await world.request(method, `${p.base}${path}`, { as: admin.as, ...options }),
        label,
      )
    }
    expect([await keyRows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
  })
})
