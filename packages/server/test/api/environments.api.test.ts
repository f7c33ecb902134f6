import {
  Environment,
  Event,
  MAX_TEXT_BYTES,
  Project,
  ProjectBackup,
  type EnvironmentSecret,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/lib/secret-box.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  expectRefused,
  insertTemplate,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

type SecretType = 'var' | 'env'

describe.each(dialects())('environments on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let box: SecretBox
  let p: ProjectResources
  let cast: Cast

  beforeAll(async () => {
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

  function body(fields: Record<string, unknown> = {}) {
    return { name: unique('env'), project_id: p.projectId, json: '{}', env: '{}', ...fields }
  }

  /** An environment's secrets as stored: kind, name and decrypted value, by name. */
  async function storedSecrets(environmentId: number) {
    const rows = await db.kysely
      .selectFrom('access_key')
      .select(['id', 'name', 'owner', 'type', 'secret', 'project_id'])
      .where('environment_id', '=', environmentId)
      .orderBy('id')
      .execute()
    return rows.map((r) => ({
      id: r.id,
      type: r.owner,
      name: r.name,
      value: r.secret === null ? null : box.decrypt(r.secret),
    }))
  }

  async function rows(): Promise<string> {
    return `${await projectRows(db, 'environment', p.projectId)}${await projectRows(db, 'access_key', p.projectId)}`
  }

  function put(env: Environment, fields: Record<string, unknown>) {
    const { secrets: _secrets, ...rest } = env
    return p.request('PUT', `/environment/${env.id}`, { ...rest, ...fields })
  }

  function secretOf(env: Environment, name: string, type: SecretType = 'var'): EnvironmentSecret {
    const secret = env.secrets?.find((s) => s.name === name && s.type === type)
    if (!secret) throw new Error(`no ${type} secret ${name}`)
    return secret
  }

  it('creates, reads, lists, updates and deletes an environment, never showing secret values', async () => {
    const name = unique('crud')
    const created = await p.environment(name, {
      password: 'ubuntu:24.04',
      json: '{"region": "eu-west-1", "replicas": 3}',
      env: '{"LOG_LEVEL": "debug"}',
      secrets: [
        { operation: 'create', type: 'var', name: 'db_password', secret: 'var-value-1' },
        { operation: 'create', type: 'env', name: 'API_TOKEN', secret: 'env-value-2' },
      ],
    })
    const blank = (s: EnvironmentSecret) => ({ ...s, secret: '', operation: '' })
    expect(created).toEqual({
      id: expect.any(Number),
      name,
      project_id: p.projectId,
      // Write-only: an answer says a password is stored, never which.
      password: '',
      json: '{"region": "eu-west-1", "replicas": 3}',
      env: '{"LOG_LEVEL": "debug"}',
      image: null,
      secrets: [
        blank({
          id: expect.any(Number),
          type: 'env',
          name: 'API_TOKEN',
          secret: '',
          operation: '',
        }),
        blank({
          id: expect.any(Number),
          type: 'var',
          name: 'db_password',
          secret: '',
          operation: '',
        }),
      ],
    })
    expect(await p.get(`/environment/${created.id}`, Environment)).toEqual(created)
    const listed = (await p.list('/environment', Environment)).find((e) => e.id === created.id)
    expect(listed).toEqual({ ...created, secrets: null })
    // Stored encrypted; decrypted they are what was sent, in the order they were sent.
    expect(await storedSecrets(created.id)).toEqual([
      {
        id: secretOf(created, 'db_password').id,
        type: 'var',
        name: 'db_password',
        value: 'var-value-1',
      },
      {
        id: secretOf(created, 'API_TOKEN', 'env').id,
        type: 'env',
        name: 'API_TOKEN',
        value: 'env-value-2',
      },
    ])

    const renamed = unique('renamed')
    const storedPassword = async () =>
      (
        await db.kysely
          .selectFrom('environment')
          .select('password')
          .where('id', '=', created.id)
          .executeTakeFirstOrThrow()
      ).password
    expect(box.decrypt((await storedPassword())!)).toBe('ubuntu:24.04')
    // Sending back what was read (`password: ""`) keeps the stored password.
    expectNoContent(await put(created, { json: '{"region": "eu-west-2"}' }))
    expect(box.decrypt((await storedPassword())!)).toBe('ubuntu:24.04')
    expectNoContent(
      await put(created, {
        name: renamed,
        json: '{"region": "us-east-1"}',
        env: null,
        password: null,
        clear_password: true,
      }),
    )
    expect(await storedPassword()).toBeNull()
    expect(await p.get(`/environment/${created.id}`, Environment)).toEqual({
      ...created,
      name: renamed,
      json: '{"region": "us-east-1"}',
      env: null,
      password: null,
    })

    expectNoContent(await p.request('DELETE', `/environment/${created.id}`))
    expectError(await p.request('GET', `/environment/${created.id}`), 404, 'Environment not found')
    // Its secrets go with it.
    expect(await storedSecrets(created.id)).toEqual([])
    const events = (await p.list('/events', Event)).map((e) => e.description)
    expect(events).toEqual(
      expect.arrayContaining([
        `Environment ${name} created`,
        `Environment ${renamed} updated`,
        `Environment ${renamed} deleted`,
      ]),
    )
  })

  it('stores the chosen Docker image, keeps it when omitted and carries it in backups', async () => {
    const env = await p.environment(unique('image'), { image: 'dind-runner:v2.0.10' })
    expect(env.image).toBe('dind-runner:v2.0.10')
    expect((await p.get(`/environment/${env.id}`, Environment)).image).toBe('dind-runner:v2.0.10')
    // A client that does not know the field leaves it alone.
    const { image: _image, ...withoutImage } = env
    expectNoContent(await put(withoutImage as Environment, {}))
    expect((await p.get(`/environment/${env.id}`, Environment)).image).toBe('dind-runner:v2.0.10')
    expectNoContent(await put(env, { image: 'nodejs-runner:v2.0.3' }))
    expect((await p.get(`/environment/${env.id}`, Environment)).image).toBe('nodejs-runner:v2.0.3')
    // Empty means none.
    expectNoContent(await put(env, { image: '' }))
    expect((await p.get(`/environment/${env.id}`, Environment)).image).toBeNull()
    expectNoContent(await put(env, { image: 'nodejs-runner:v2.0.3' }))

    const before = await rows()
    for (const image of ['ubuntu:24.04', 'nodejs-runner:v2.0.1', 'dind-runner:v2.0.1', 42]) {
      expectError(await p.request('POST', '/environment', body({ image })), 400, /image/)
      expectError(await put(env, { image }), 400, /image/)
    }
    expect(await rows()).toBe(before)

    const backup = expectBody(
      await world.request('GET', `/api/project/${p.projectId}/backup`, { as: admin.as }),
      200,
      ProjectBackup,
    )
    expect(backup.environments.find((e) => e.name === env.name)?.image).toBe('nodejs-runner:v2.0.3')
    const restored = expectBody(
      await world.request('POST', '/api/projects/restore', {
        as: admin.as,
        json: { ...backup, meta: { ...backup.meta, name: unique('restored') } },
      }),
      200,
      Project,
    )
    const copy = new ProjectResources(world.request.bind(world), admin.as, restored.id)
    const copied = (await copy.list('/environment', Environment)).find((e) => e.name === env.name)
    expect(copied?.image).toBe('nodejs-runner:v2.0.3')
  })

  it('defaults extra variables to an empty object and accepts no environment variables', async () => {
    const env = expectBody(
      await p.request('POST', '/environment', { name: unique('min'), project_id: p.projectId }),
      201,
      Environment,
    )
    expect(env).toMatchObject({ json: '{}', env: null, password: null, secrets: [] })
  })

  it('requires extra variables and environment variables to be JSON objects', async () => {
    const before = await rows()
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ json: '' }, /^Extra variables must be valid JSON: /],
      [{ json: 'region=eu' }, /^Extra variables must be valid JSON: .*JSON/],
      [{ json: '{"a": 1,}' }, /^Extra variables must be valid JSON: /],
      [{ json: '[1, 2]' }, /^Extra variables must be valid JSON: must be a JSON object$/],
      [{ json: 'null' }, /^Extra variables must be valid JSON: must be a JSON object$/],
      [{ json: '"text"' }, /^Extra variables must be valid JSON: must be a JSON object$/],
      [{ json: '42' }, /^Extra variables must be valid JSON: must be a JSON object$/],
      [{ env: 'LOG=debug' }, /^Environment variables must be valid JSON: /],
      [{ env: '[]' }, /^Environment variables must be valid JSON: must be a JSON object$/],
      [{ env: 'true' }, /^Environment variables must be valid JSON: must be a JSON object$/],
      [{ name: '' }, /^Environment name can not be empty$/],
      [{ name: ' \t ' }, /^Environment name can not be empty$/],
    ]
    for (const [fields, message] of cases) {
      expectError(await p.request('POST', '/environment', body(fields)), 400, message)
    }
    const env = await p.environment(unique('valid'))
    const afterCreate = await rows()
    for (const [fields, message] of cases) {
      expectError(await put(env, fields), 400, message)
    }
    expect(await rows()).toBe(afterCreate)
    expect(before).not.toBe(afterCreate)
  })

  it('renames a secret and keeps its value when no new value is sent', async () => {
    const env = await p.environment(unique('sec'), {
      secrets: [
        { operation: 'create', type: 'var', name: 'one', secret: 'first-value' },
        { operation: 'create', type: 'var', name: 'two', secret: 'second-value' },
        { operation: 'create', type: 'env', name: 'THREE', secret: 'third-value' },
      ],
    })
    const one = secretOf(env, 'one')
    const two = secretOf(env, 'two')
    const three = secretOf(env, 'THREE', 'env')
    expectNoContent(
      await put(env, {
        secrets: [
          // Rename and retype, value kept.
          { operation: 'update', id: one.id, type: 'env', name: 'ONE', secret: '' },
          // New value under the same name.
          { operation: 'update', id: two.id, type: 'var', name: 'two', secret: 'second-new' },
          { operation: 'delete', id: three.id },
          { operation: 'create', type: 'var', name: 'four', secret: 'fourth-value' },
          // Rows the console did not touch come back without an operation.
          { id: one.id, type: 'var', name: 'ignored', secret: '' },
          { operation: '', id: two.id, type: 'var', name: 'ignored', secret: 'x' },
        ],
      }),
    )
    const stored = await storedSecrets(env.id)
    expect(stored.map(({ type, name, value }) => ({ type, name, value }))).toEqual([
      { type: 'env', name: 'ONE', value: 'first-value' },
      { type: 'var', name: 'two', value: 'second-new' },
      { type: 'var', name: 'four', value: 'fourth-value' },
    ])
    expect(stored.find((s) => s.name === 'ONE')?.id).toBe(one.id)
    const read = await p.get(`/environment/${env.id}`, Environment)
    // Listed by name, ignoring case, the same on every database.
    expect(read.secrets?.map((s) => [s.type, s.name, s.secret, s.operation])).toEqual([
      ['var', 'four', '', ''],
      ['env', 'ONE', '', ''],
      ['var', 'two', '', ''],
    ])
    // An update that leaves `secret` out also keeps the value.
    expectNoContent(
      await put(env, { secrets: [{ operation: 'update', id: one.id, type: 'env', name: 'ONE' }] }),
    )
    expect((await storedSecrets(env.id)).find((s) => s.id === one.id)?.value).toBe('first-value')
  })

  it('refuses duplicate secret names and invalid secret rows, changing nothing', async () => {
    const env = await p.environment(unique('dup'), {
      secrets: [
        { operation: 'create', type: 'var', name: 'taken', secret: 'v1' },
        { operation: 'create', type: 'var', name: 'other', secret: 'v2' },
      ],
    })
    // The same name as a var and as an env variable are two different secrets.
    expectNoContent(
      await put(env, {
        secrets: [{ operation: 'create', type: 'env', name: 'taken', secret: 'e' }],
      }),
    )
    const fresh = await p.get(`/environment/${env.id}`, Environment)
    const before = await rows()
    const other = secretOf(fresh, 'other')
    const cases: Array<[Record<string, unknown>[], RegExp]> = [
      [
        [{ operation: 'create', type: 'var', name: 'taken', secret: 'x' }],
        /^A secret named taken already exists$/,
      ],
      [
        [{ operation: 'create', type: 'var', name: ' taken ', secret: 'x' }],
        /^A secret named taken already exists$/,
      ],
      [
        [
          { operation: 'create', type: 'var', name: 'twin', secret: 'a' },
          { operation: 'create', type: 'var', name: 'twin', secret: 'b' },
        ],
        /^A secret named twin already exists$/,
      ],
      [
        [{ operation: 'update', id: other.id, type: 'var', name: 'taken', secret: '' }],
        /^A secret named taken already exists$/,
      ],
      [
        [{ operation: 'create', type: 'file', name: 'x', secret: 'x' }],
        /^secret type must be var or env$/,
      ],
      [
        [{ operation: 'upsert', type: 'var', name: 'x', secret: 'x' }],
        /^secret operation must be create, update or delete$/,
      ],
      [
        [{ operation: 'create', type: 'var', name: '', secret: 'x' }],
        /^secret name can not be empty$/,
      ],
      [
        [{ operation: 'create', type: 'var', name: 'empty', secret: '' }],
        /^secret value can not be empty$/,
      ],
      [
        [{ operation: 'create', type: 'var', name: 'n'.repeat(256), secret: 'x' }],
        /at most 255 characters/,
      ],
      [[{ operation: 'update', type: 'var', name: 'x', secret: 'x' }], /^secret id is required$/],
      [[{ operation: 'delete' }], /^secret id is required$/],
    ]
    for (const [secrets, message] of cases) {
      expectError(await put(fresh, { name: unique('never'), secrets }), 400, message)
    }
    // On create there is nothing to update, so only the rows valid without one apply.
    for (const [secrets, message] of cases.filter((_, i) => i === 2 || i >= 4)) {
      expectError(await p.request('POST', '/environment', body({ secrets })), 400, message)
    }
    expect(await rows()).toBe(before)
  })

  it('refuses an operation on a secret of another environment as 404, changing nothing', async () => {
    const mine = await p.environment(unique('mine'), {
      secrets: [{ operation: 'create', type: 'var', name: 'mine', secret: 'my-value' }],
    })
    const theirs = await p.environment(unique('theirs'), {
      secrets: [{ operation: 'create', type: 'var', name: 'theirs', secret: 'their-value' }],
    })
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreign = await q.environment(unique('foreign'), {
      secrets: [{ operation: 'create', type: 'env', name: 'FOREIGN', secret: 'foreign-value' }],
    })
    const key = await p.loginPasswordKey(unique('key'), 'key-password')
    const before = await rows()
    const targets = [
      secretOf(theirs, 'theirs').id,
      secretOf(foreign, 'FOREIGN', 'env').id,
      key.id, // a key-store key is not a secret of any environment
      999_999_999,
    ]
    for (const id of targets) {
      const operations = [
        { operation: 'update', id, type: 'var', name: 'hijacked', secret: 'new' },
        { operation: 'delete', id },
      ]
      for (const op of operations) {
        expectError(
          await put(mine, { name: unique('never'), secrets: [op] }),
          404,
          `Secret ${id} of this environment not found`,
        )
      }
      // Create then operate: the create is rolled back too.
      expectError(
        await put(mine, {
          secrets: [{ operation: 'create', type: 'var', name: 'new', secret: 'x' }, operations[1]],
        }),
        404,
      )
    }
    expect(await rows()).toBe(before)
    expect((await storedSecrets(theirs.id))[0]?.value).toBe('their-value')
    expect((await storedSecrets(foreign.id))[0]?.value).toBe('foreign-value')
  })

  it('lists the templates that use an environment and refuses to delete it while used', async () => {
    const env = await p.environment(unique('used'), {
      secrets: [{ operation: 'create', type: 'var', name: 'kept', secret: 'kept-value' }],
    })
    const template = unique('tpl')
    const templateId = await insertTemplate(db, p.projectId, {
      name: template,
      environment_id: env.id,
    })
    expect(await p.refs(`/environment/${env.id}`)).toEqual({
      templates: [{ id: templateId, name: template }],
      inventories: [],
      repositories: [],
      integrations: [],
      schedules: [],
    })
    const before = await rows()
    const refused = await p.request('DELETE', `/environment/${env.id}`)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: 'Environment is in use by one or more templates',
      inUse: true,
    })
    expect(await rows()).toBe(before)
    expect((await storedSecrets(env.id))[0]?.value).toBe('kept-value')

    const unused = await p.environment(unique('unused'))
    expect((await p.refs(`/environment/${unused.id}`)).templates).toEqual([])
    expectNoContent(await p.request('DELETE', `/environment/${unused.id}`))
  })

  it('answers 404 for an environment of another project and changes nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreign = await q.environment(unique('foreign'))
    const before = await projectRows(db, 'environment', project.id)
    for (const [method, path, json] of [
      ['GET', `/environment/${foreign.id}`, undefined],
      ['GET', `/environment/${foreign.id}/refs`, undefined],
      ['PUT', `/environment/${foreign.id}`, { ...body(), id: foreign.id }],
      ['DELETE', `/environment/${foreign.id}`, undefined],
    ] as const) {
      expectError(await p.request(method, path, json), 404, 'Environment not found')
    }
    expect(await projectRows(db, 'environment', project.id)).toBe(before)
  })

  it('insists that ids in the body match the URL', async () => {
    const env = await p.environment(unique('ids'))
    const other = await world.newProject()
    const before = await rows()
    expectError(
      await p.request('POST', '/environment', body({ project_id: other.id })),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await put(env, { id: env.id + 1 }),
      400,
      'Environment ID in body and URL must be the same',
    )
    expectError(
      await put(env, { project_id: other.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expect(await rows()).toBe(before)
  })

  it('sorts by name and refuses other columns', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    // Drop the "Empty" environment every project starts with: capitals sort apart per database.
    for (const e of await q.list('/environment', Environment)) {
      expectNoContent(await q.request('DELETE', `/environment/${e.id}`))
    }
    const b = await q.environment('b-env')
    const a = await q.environment('a-env')
    const ids = async (query: string) =>
      (await q.list(`/environment${query}`, Environment)).map((e) => e.id)
    expect(await ids('')).toEqual([a.id, b.id])
    expect(await ids('?sort=name&order=desc')).toEqual([b.id, a.id])
    expectError(await q.request('GET', '/environment?sort=json'), 400, /invalid sort column/)
  })

  it('lets every member read environments but only managers and owners change them', async () => {
    const env = await p.environment(unique('perm'), {
      secrets: [{ operation: 'create', type: 'var', name: 'perm', secret: 'perm-value' }],
    })
    const before = await rows()
    const reads = ['/environment', `/environment/${env.id}`, `/environment/${env.id}/refs`]
    const writes = [
      ['POST', '/environment', body()],
      ['PUT', `/environment/${env.id}`, { ...env, secrets: [] }],
      ['DELETE', `/environment/${env.id}`, undefined],
    ] as const
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        const result = await world.request('GET', `${p.base}${path}`, { as })
        expect(result.status).toBe(200)
        expect(result.text).not.toContain('perm-value')
      }
      for (const [method, path, json] of writes) {
        expectError(await world.request(method, `${p.base}${path}`, { as, json }), 403)
      }
    }
    const outsider = cast.outsider.as
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`, { as: outsider }), 404)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, `${p.base}${path}`, { as: outsider, json }), 404)
    }
    expect(await rows()).toBe(before)
    const managed = await world.request('POST', `${p.base}/environment`, {
      as: cast.manager.as,
      json: body(),
    })
    expectBody(managed, 201, Environment)
    const guestList = await world.request('GET', `${p.base}/environment`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(Environment)).map((e) => e.id)).toContain(env.id)
  })

  it('stores the longest variables it accepts and refuses longer ones', async () => {
    // Two bytes a 'ü', plus one ASCII character when the room left is odd.
    const room = MAX_TEXT_BYTES - 9
    const fill = 'ü'.repeat(Math.floor(room / 2)) + 'x'.repeat(room % 2)
    const longest = `{"k": "${fill}"}`
    expect(new TextEncoder().encode(longest).length).toBe(MAX_TEXT_BYTES)
    const env = await p.environment(unique('long'), { json: longest, env: longest })
    expect(await p.get(`/environment/${env.id}`, Environment)).toMatchObject({
      json: longest,
      env: longest,
    })
    const before = await rows()
    const tooLong = `{"k": "${fill}x"}`
    expectError(
      await p.request('POST', '/environment', body({ json: tooLong })),
      400,
      /Extra variables is too long/,
    )
    expectError(
      await p.request('POST', '/environment', body({ env: tooLong })),
      400,
      /Environment variables is too long/,
    )
    expect(await rows()).toBe(before)
  })

  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const env = await p.environment(unique('bad'))
    const before = [await rows(), await projectRows(db, 'event', p.projectId)]
    const valid = body()
    const { secrets: _secrets, ...update } = env
    const mistyped: Array<Record<string, unknown>> = [
      { json: { a: 1 } },
      { json: 5 },
      { json: null },
      { env: { A: '1' } },
      { env: 7 },
      { password: 5 },
      { password: 'p'.repeat(256) },
      { secrets: 'none' },
      { secrets: [null] },
      { secrets: ['create'] },
      { secrets: { operation: 'create' } },
      { secrets: [{ operation: 'create', type: 'var', name: 'x', secret: 5 }] },
      { secrets: [{ operation: 'create', type: 'var', name: 5, secret: 'x' }] },
      { secrets: [{ operation: 'update', id: 'x', type: 'var', name: 'x' }] },
      { secrets: [{ operation: 'delete', id: 99_999_999_999 }] },
      { secrets: [{ operation: 'delete', id: -1 }] },
    ]
    type Case = [string, string, string, HttpOptions]
    const cases: Case[] = [
      ...malformedBodies(valid).map(([l, o]): Case => [`POST ${l}`, 'POST', '/environment', o]),
      ...malformedBodies(update).map(([l, o]): Case => [
        `PUT ${l}`,
        'PUT',
        `/environment/${env.id}`,
        o,
      ]),
      ...mistyped.map((f): Case => [
        `POST ${JSON.stringify(f)}`,
        'POST',
        '/environment',
        { json: { ...valid, ...f } },
      ]),
      ...mistyped.map((f): Case => [
        `PUT ${JSON.stringify(f)}`,
        'PUT',
        `/environment/${env.id}`,
        { json: { ...update, ...f } },
      ]),
      // Only an update declares clear_password (a create ignores it).
      ...[{ clear_password: 'yes' }, { clear_password: true, password: 'new' }].map((f): Case => [
        `PUT ${JSON.stringify(f)}`,
        'PUT',
        `/environment/${env.id}`,
        { json: { ...update, ...f } },
      ]),
    ]
    for (const path of ['abc', '-1', '0', '99999999999']) {
      cases.push([`GET ${path}`, 'GET', `/environment/${path}`, {}])
      cases.push([`PUT ${path}`, 'PUT', `/environment/${path}`, { json: update }])
      cases.push([`DELETE ${path}`, 'DELETE', `/environment/${path}`, {}])
      cases.push([`refs ${path}`, 'GET', `/environment/${path}/refs`, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, `${p.base}${path}`, { as: admin.as, ...options })
      expectRefused(result, label)
    }
    expect([await rows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
  })
})
