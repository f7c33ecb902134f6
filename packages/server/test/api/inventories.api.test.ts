import { Event, Inventory, MAX_TEXT_BYTES, type AccessKey } from '@flagman/contract'
import { nowIso, type Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  expectRefused,
  generateSshKeys,
  insertTemplate,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('inventories on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let sshKey: AccessKey
  let becomeKey: AccessKey
  let noneKey: AccessKey
  let cast: Cast

  beforeAll(async () => {
    const keys = generateSshKeys()
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    sshKey = await p.sshKey(unique('ssh'), keys.plain)
    becomeKey = await p.loginPasswordKey(unique('become'), 'sudo-password')
    noneKey = await p.key(unique('none'))
    cast = await castFor(world, project.id)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  function body(fields: Record<string, unknown> = {}) {
    return {
      name: unique('inv'),
      project_id: p.projectId,
      type: 'static',
      inventory: '[web]\nweb1.example.test',
      ssh_key_id: sshKey.id,
      ...fields,
    }
  }

  async function rows(): Promise<string> {
    return projectRows(db, 'inventory', p.projectId)
  }

  it('creates, reads, lists, updates and deletes an inventory', async () => {
    const name = unique('crud')
    const created = await p.inventory(name, sshKey.id, { become_key_id: becomeKey.id })
    expect(created).toEqual({
      id: expect.any(Number),
      name,
      project_id: p.projectId,
      type: 'static',
      inventory: '[web]\nweb1.example.test',
      ssh_key_id: sshKey.id,
      become_key_id: becomeKey.id,
      repository_id: null,
      template_id: null,
    })
    expect(await p.get(`/inventory/${created.id}`, Inventory)).toEqual(created)
    expect(await p.list('/inventory', Inventory)).toContainEqual(created)

    const repo = await p.repository(unique('repo'), sshKey.id)
    const changed = {
      ...created,
      name: unique('changed'),
      type: 'file',
      inventory: 'inventories/production.ini',
      ssh_key_id: becomeKey.id,
      become_key_id: null,
      repository_id: repo.id,
    }
    expectNoContent(await p.request('PUT', `/inventory/${created.id}`, changed))
    expect(await p.get(`/inventory/${created.id}`, Inventory)).toEqual(changed)

    expectNoContent(await p.request('DELETE', `/inventory/${created.id}`))
    expectError(await p.request('GET', `/inventory/${created.id}`), 404)
    expect((await p.list('/inventory', Inventory)).map((i) => i.id)).not.toContain(created.id)
    const events = (await p.list('/events', Event)).map((e) => e.description)
    expect(events).toEqual(
      expect.arrayContaining([
        `Inventory ${name} created`,
        `Inventory ${changed.name} updated`,
        `Inventory ${changed.name} deleted`,
      ]),
    )
  })

  it('trims the inventory text and the name', async () => {
    const name = unique('trim')
    const inv = await p.inventory(`  ${name}\t`, sshKey.id, {
      inventory: '\n  [db]\ndb1.example.test\n\n  ',
    })
    expect([inv.name, inv.inventory]).toEqual([name, '[db]\ndb1.example.test'])
    const file = await p.inventory(unique('file'), sshKey.id, {
      type: 'file',
      inventory: '  hosts/prod.yml \n',
    })
    expect(file.inventory).toBe('hosts/prod.yml')
  })

  it('accepts YAML inventories that parse and refuses others with the parse error', async () => {
    const yaml = 'all:\n  children:\n    web:\n      hosts:\n        web1.example.test:\n'
    const ok = await p.inventory(unique('yaml'), sshKey.id, {
      type: 'static-yaml',
      inventory: yaml,
    })
    expect(ok).toMatchObject({ type: 'static-yaml', inventory: yaml.trim() })

    const before = await rows()
    const broken: Array<[string, RegExp]> = [
      ['all:\n  hosts:\n    a: 1\n   b: 2', /All mapping items must start at the same column/],
      ['web: [one, two', /Flow sequence/],
      ['all:\n\thosts: x', /Tabs are not allowed as indentation at line 2/],
      ['a: 1\na: 2', /unique/],
    ]
    for (const [text, reason] of broken) {
      const result = await p.request(
        'POST',
        '/inventory',
        body({ type: 'static-yaml', inventory: text }),
      )
      const error = expectError(result, 400, /^Inventory is not valid YAML: /)
      expect(error).toMatch(reason)
      expect(error).toMatch(/at line \d+, column \d+$/)
    }
    const update = { ...ok, inventory: 'web: [one, two' }
    expectError(await p.request('PUT', `/inventory/${ok.id}`, update), 400, /not valid YAML/)
    expect(await rows()).toBe(before)
  })

  it('requires a file path inside the repository for file inventories', async () => {
    const ok = await p.inventory(unique('file'), sshKey.id, {
      type: 'file',
      inventory: 'inventories/prod/hosts.ini',
    })
    expect(ok.inventory).toBe('inventories/prod/hosts.ini')
    const before = await rows()
    const refused: Array<[string, string]> = [
      ['', 'Inventory file path is required'],
      ['   ', 'Inventory file path is required'],
      ['../x', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
      ['/etc/hosts', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
      ['inventories/../../secrets', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
      ['inv\\..\\..\\x', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
      ['~/hosts', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
      ['C:\\hosts', 'Invalid inventory file pathname. Must be: path/to/inventory.'],
    ]
    for (const [path, message] of refused) {
      const result = await p.request('POST', '/inventory', body({ type: 'file', inventory: path }))
      expectError(result, 400, message)
    }
    expectError(
      await p.request('PUT', `/inventory/${ok.id}`, { ...ok, inventory: '/etc/passwd' }),
      400,
      /Invalid inventory file pathname/,
    )
    expect(await rows()).toBe(before)
  })

  it('requires user credentials for host inventories and a login/password become key', async () => {
    const before = await rows()
    for (const type of ['static', 'static-yaml', 'file']) {
      const fields = { type, inventory: type === 'file' ? 'hosts' : '', ssh_key_id: null }
      expectError(
        await p.request('POST', '/inventory', body(fields)),
        400,
        'User credentials (ssh_key_id) are required',
      )
      expectError(
        await p.request('POST', '/inventory', body({ ...fields, ssh_key_id: undefined })),
        400,
        'User credentials (ssh_key_id) are required',
      )
    }
    for (const become of [sshKey, noneKey]) {
      expectError(
        await p.request('POST', '/inventory', body({ become_key_id: become.id })),
        400,
        'The become key must be a login with password',
      )
    }
    expectError(
      await p.request('POST', '/inventory', body({ type: 'ftp' })),
      400,
      'Not supported inventory type',
    )
    expectError(
      await p.request('POST', '/inventory', body({ name: '  ' })),
      400,
      'Inventory name can not be empty',
    )
    expect(await rows()).toBe(before)

    // A login/password key may be both the user credentials and the become key.
    const both = await p.inventory(unique('both'), becomeKey.id, { become_key_id: becomeKey.id })
    expect([both.ssh_key_id, both.become_key_id]).toEqual([becomeKey.id, becomeKey.id])
    // Workspaces need no credentials, but a name.
    const ws = await p.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: 'default',
    })
    expect(ws.ssh_key_id).toBeNull()
    expectError(
      await p.request(
        'POST',
        '/inventory',
        body({ type: 'tofu-workspace', inventory: '', ssh_key_id: null }),
      ),
      400,
      'Workspace name is required',
    )
  })

  it('refuses keys, repositories and templates of another project as 404, storing nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreignKey = await q.loginPasswordKey(unique('fk'), 'foreign')
    const foreignRepo = await q.repository(unique('fr'), foreignKey.id)
    const foreignTemplate = await insertTemplate(db, project.id, { name: unique('ft') })
    const env = await p.environment(unique('env'), {
      secrets: [{ operation: 'create', name: 'PASS', secret: 'env-secret', type: 'var' }],
    })
    const secretId = env.secrets?.[0]?.id ?? 0
    const mine = await p.inventory(unique('mine'), sshKey.id)
    const before = await rows()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ssh_key_id: foreignKey.id }, 'User credentials key not found'],
      [{ ssh_key_id: secretId }, 'User credentials key not found'],
      [{ ssh_key_id: 999_999_999 }, 'User credentials key not found'],
      [{ become_key_id: foreignKey.id }, 'Become key not found'],
      [{ become_key_id: secretId }, 'Become key not found'],
      [{ repository_id: foreignRepo.id }, 'Repository not found'],
      [{ repository_id: 999_999_999 }, 'Repository not found'],
      [{ template_id: foreignTemplate }, 'Template not found'],
    ]
    for (const [fields, message] of cases) {
      expectError(await p.request('POST', '/inventory', body(fields)), 404, message)
      expectError(
        await p.request('PUT', `/inventory/${mine.id}`, { ...mine, ...fields }),
        404,
        message,
      )
    }
    expect(await rows()).toBe(before)
    expect(await projectRows(db, 'inventory', project.id)).toBe('[]')
  })

  it('filters by app and by owning template', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const key = await q.key(unique('k'))
    const tf = await insertTemplate(db, project.id, { name: 'tf', app: 'terraform' })
    const tofu = await insertTemplate(db, project.id, { name: 'tofu', app: 'tofu' })
    const a = await q.inventory('a-static', key.id)
    const b = await q.inventory('b-yaml', key.id, { type: 'static-yaml', inventory: 'all: {}' })
    const c = await q.inventory('c-file', key.id, { type: 'file', inventory: 'hosts' })
    const d = await q.inventory('d-tf-free', null, { type: 'terraform-workspace', inventory: 'w' })
    const e = await q.inventory('e-tf-owned', null, {
      type: 'terraform-workspace',
      inventory: 'prod',
      template_id: tf,
    })
    const f = await q.inventory('f-tofu-owned', null, {
      type: 'tofu-workspace',
      inventory: 'prod',
      template_id: tofu,
    })
    const g = await q.inventory('g-tofu-free', null, { type: 'tofu-workspace', inventory: 'w' })
    expect(e.template_id).toBe(tf)
    const ids = async (query: string) =>
      (await q.list(`/inventory${query}`, Inventory)).map((i) => i.id)
    // Without template_id only inventories no template owns.
    expect(await ids('')).toEqual([a.id, b.id, c.id, d.id, g.id])
    expect(await ids('?app=ansible')).toEqual([a.id, b.id, c.id])
    expect(await ids('?app=terraform')).toEqual([d.id])
    expect(await ids('?app=tofu')).toEqual([g.id])
    expect(await ids('?app=bash')).toEqual([a.id, b.id, c.id, d.id, g.id])
    // Names of built-in object properties are just unknown apps.
    expect(await ids('?app=constructor')).toEqual([a.id, b.id, c.id, d.id, g.id])
    expect(await ids(`?template_id=${tf}`)).toEqual([e.id])
    expect(await ids(`?app=terraform&template_id=${tf}`)).toEqual([e.id])
    expect(await ids(`?app=tofu&template_id=${tf}`)).toEqual([])
    expect(await ids(`?app=tofu&template_id=${tofu}`)).toEqual([f.id])
    expect(await ids('?template_id=999999')).toEqual([])
    expect(await ids('?sort=name&order=desc')).toEqual([g.id, d.id, c.id, b.id, a.id])
    expectError(await q.request('GET', '/inventory?sort=type'), 400, /invalid sort column/)
    expectError(await q.request('GET', '/inventory?template_id=abc'), 400, /template_id/)
    expectError(await q.request('GET', '/inventory?template_id=99999999999'), 400, /template_id/)
  })

  it('lists the templates that use an inventory and refuses to delete it while used', async () => {
    const used = await p.inventory(unique('used'), sshKey.id)
    const template = unique('tpl')
    const templateId = await insertTemplate(db, p.projectId, {
      name: template,
      inventory_id: used.id,
    })
    expect(await p.refs(`/inventory/${used.id}`)).toEqual({
      templates: [{ id: templateId, name: template }],
      inventories: [],
      repositories: [],
      integrations: [],
      schedules: [],
    })
    const before = await rows()
    const refused = await p.request('DELETE', `/inventory/${used.id}`)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: 'Inventory is in use by one or more templates',
      inUse: true,
    })
    expect(await rows()).toBe(before)

    // An inventory only past tasks ran against can go; the tasks keep their history.
    const past = await p.inventory(unique('past'), sshKey.id)
    await db.kysely
      .insertInto('task')
      .values({
        project_id: p.projectId,
        template_id: templateId,
        status: 'success',
        inventory_id: past.id,
        created: nowIso(),
      })
      .execute()
    expect((await p.refs(`/inventory/${past.id}`)).templates).toEqual([])
    expectNoContent(await p.request('DELETE', `/inventory/${past.id}`))
    const task = await db.kysely
      .selectFrom('task')
      .select(['inventory_id', 'status'])
      .where('template_id', '=', templateId)
      .executeTakeFirstOrThrow()
    expect(task).toEqual({ inventory_id: null, status: 'success' })
  })

  it('answers 404 for an inventory of another project and changes nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const key = await q.key(unique('k'))
    const foreign = await q.inventory(unique('foreign'), key.id)
    const before = await projectRows(db, 'inventory', project.id)
    for (const [method, path, json] of [
      ['GET', `/inventory/${foreign.id}`, undefined],
      ['GET', `/inventory/${foreign.id}/refs`, undefined],
      ['PUT', `/inventory/${foreign.id}`, { ...body(), id: foreign.id }],
      ['DELETE', `/inventory/${foreign.id}`, undefined],
    ] as const) {
      expectError(await p.request(method, path, json), 404, 'Inventory not found')
    }
    expect(await projectRows(db, 'inventory', project.id)).toBe(before)
  })

  it('insists that ids in the body match the URL', async () => {
    const inv = await p.inventory(unique('ids'), sshKey.id)
    const other = await world.newProject()
    const before = await rows()
    expectError(
      await p.request('POST', '/inventory', body({ project_id: other.id })),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/inventory/${inv.id}`, { ...inv, id: inv.id + 1 }),
      400,
      'Inventory ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/inventory/${inv.id}`, { ...inv, project_id: other.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expect(await rows()).toBe(before)
  })

  it('lets every member read inventories but only managers and owners change them', async () => {
    const inv = await p.inventory(unique('perm'), sshKey.id)
    const before = await rows()
    const reads = ['/inventory', `/inventory/${inv.id}`, `/inventory/${inv.id}/refs`]
    const writes = [
      ['POST', '/inventory', body()],
      ['PUT', `/inventory/${inv.id}`, { ...inv, name: unique('x') }],
      ['DELETE', `/inventory/${inv.id}`, undefined],
    ] as const
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        expect((await world.request('GET', `${p.base}${path}`, { as })).status).toBe(200)
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
    const managed = await world.request('POST', `${p.base}/inventory`, {
      as: cast.manager.as,
      json: body(),
    })
    expectBody(managed, 201, Inventory)
    const guestList = await world.request('GET', `${p.base}/inventory`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(Inventory)).map((i) => i.id)).toContain(inv.id)
  })

  it('stores the longest inventory it accepts and refuses a longer one', async () => {
    // Multi-byte text: the limit is in bytes, what every database can hold.
    const longest = `[web]\n${'é'.repeat((MAX_TEXT_BYTES - 7) / 2)}x`
    const inv = await p.inventory(unique('long'), sshKey.id, { inventory: longest })
    expect(inv.inventory).toBe(longest)
    expect((await p.get(`/inventory/${inv.id}`, Inventory)).inventory).toBe(longest)
    const before = await rows()
    expectError(
      await p.request('POST', '/inventory', body({ inventory: `${longest}é` })),
      400,
      /^inventory is too long/,
    )
    expect(await rows()).toBe(before)
  })

  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const inv = await p.inventory(unique('bad'), sshKey.id)
    const before = [await rows(), await projectRows(db, 'event', p.projectId)]
    const valid = body()
    const update = { ...inv, name: unique('never') }
    const mistyped: Array<Record<string, unknown>> = [
      { type: 1 },
      { type: null },
      { inventory: 42 },
      { inventory: null },
      { inventory: ['a'] },
      { ssh_key_id: '1' },
      { ssh_key_id: 0 },
      { ssh_key_id: -5 },
      { ssh_key_id: 2.5 },
      { ssh_key_id: 99_999_999_999 },
      { become_key_id: 'x' },
      { become_key_id: 2_147_483_648 },
      { repository_id: true },
      { repository_id: 99_999_999_999 },
      { template_id: 99_999_999_999 },
      { template_id: {} },
    ]
    type Case = [string, string, string, HttpOptions]
    const cases: Case[] = [
      ...malformedBodies(valid).map(([l, o]): Case => [`POST ${l}`, 'POST', '/inventory', o]),
      ...malformedBodies(update).map(([l, o]): Case => [
        `PUT ${l}`,
        'PUT',
        `/inventory/${inv.id}`,
        o,
      ]),
      ...mistyped.map((f): Case => [
        `POST ${JSON.stringify(f)}`,
        'POST',
        '/inventory',
        { json: { ...valid, ...f } },
      ]),
      ...mistyped.map((f): Case => [
        `PUT ${JSON.stringify(f)}`,
        'PUT',
        `/inventory/${inv.id}`,
        { json: { ...update, ...f } },
      ]),
    ]
    for (const path of ['abc', '-1', '0', '99999999999']) {
      cases.push([`GET ${path}`, 'GET', `/inventory/${path}`, {}])
      cases.push([`PUT ${path}`, 'PUT', `/inventory/${path}`, { json: update }])
      cases.push([`DELETE ${path}`, 'DELETE', `/inventory/${path}`, {}])
      cases.push([`refs ${path}`, 'GET', `/inventory/${path}/refs`, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, `${p.base}${path}`, { as: admin.as, ...options })
      expectRefused(result, label)
    }
    expect([await rows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
  })
})
