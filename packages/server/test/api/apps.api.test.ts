import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { App } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import { expectRefused } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { DEFAULT_APPS } from '../support/templates.js'

const JSON_HEADERS = { 'Content-Type': 'application/json' }

/** The default apps as a server shows them before anything is configured. */
function defaultApp(id: (typeof DEFAULT_APPS)[number], active: boolean): App {
  const looks: Record<typeof id, [number, string, string, string]> = {
    ansible: [1000, 'Ansible', '#1a1918', '#ffffff'],
    terraform: [900, 'Terraform', '#7b42bc', '#a77fe0'],
    tofu: [800, 'OpenTofu', '#b89700', '#ffda18'],
    pulumi: [750, 'Pulumi', '#8a3391', '#f7bf2a'],
    bash: [700, 'Bash', '#2e7d32', '#81c784'],
    powershell: [600, 'PowerShell', '#012456', '#5391fe'],
    python: [500, 'Python', '#306998', '#ffd43b'],
  }
  const [priority, title, color, dark_color] = looks[id]
  return { id, active, priority, title, icon: id, color, dark_color, path: '', args: null }
}

describe.each(dialects())('apps on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let user: Person
  let db: Db
  let binDir: string

  beforeAll(async () => {
    // Only what is on the server's PATH decides which default apps start active:
    // an executable terraform and bash, a directory named tofu, a pwsh that can not run.
    binDir = mkdtempSync(join(tmpdir(), 'flagman-bin-'))
    for (const program of ['terraform', 'bash', 'pwsh']) {
      writeFileSync(join(binDir, program), '#!/bin/sh\nexit 0\n')
    }
    chmodSync(join(binDir, 'terraform'), 0o755)
    chmodSync(join(binDir, 'bash'), 0o755)
    chmodSync(join(binDir, 'pwsh'), 0o644)
    mkdirSync(join(binDir, 'tofu'))
    server = await startTestServer(dialect, { PATH: binDir })
    world = new World(server)
    admin = await world.admin()
    user = await world.newUser()
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    if (binDir) rmSync(binDir, { recursive: true, force: true })
  })

  /** Every stored app setting, to show that a refused request changed nothing. */
  async function settings(): Promise<Array<{ key: string; value: string }>> {
    return db.kysely
      .selectFrom('option')
      .select(['key', 'value'])
      .where('key', 'like', 'apps.%')
      .orderBy('key')
      .execute()
  }

  async function list(as = admin.as): Promise<App[]> {
    return expectBody(await world.request('GET', '/api/apps', { as }), 200, z.array(App))
  }

  async function get(id: string): Promise<App> {
    return expectBody(await world.request('GET', `/api/apps/${id}`, { as: admin.as }), 200, App)
  }

  async function save(id: string, json: unknown, method = 'PUT'): Promise<void> {
    expectNoContent(await world.request(method, `/api/apps/${id}`, { as: admin.as, json }))
  }

  async function setActive(id: string, active: boolean): Promise<void> {
    expectNoContent(
      await world.request('POST', `/api/apps/${id}/active`, { as: admin.as, json: { active } }),
    )
  }

  async function expectMissing(id: string): Promise<void> {
    expectError(await world.request('GET', `/api/apps/${id}`, { as: admin.as }), 404)
    expect((await list()).map((a) => a.id)).not.toContain(id)
  }

  it('lists the seven default apps by priority, active when their program is on PATH', async () => {
    const expected = [
      defaultApp('ansible', false),
      defaultApp('terraform', true),
      defaultApp('tofu', false),
      defaultApp('pulumi', false),
      defaultApp('bash', true),
      defaultApp('powershell', false),
      defaultApp('python', false),
    ]
    expect(await list()).toEqual(expected)
    expect(await list(user.as)).toEqual(expected)
    expect(await get('terraform')).toEqual(defaultApp('terraform', true))
    expect(await settings()).toEqual([])
  })

  it('lets an administrator add, edit and activate apps', async () => {
    const deployer = {
      title: 'Deployer',
      icon: 'rocket',
      color: '#123456',
      dark_color: '#654321',
      path: '/opt/deployer/bin/deploy',
      args: ['--fast', '--quiet'],
      priority: 850,
      active: true,
    }
    await save('deployer', deployer)
    expect(await get('deployer')).toEqual({ id: 'deployer', ...deployer })
    const order = (await list()).map((a) => a.id)
    expect(order.indexOf('deployer')).toBe(order.indexOf('terraform') + 1)
    expect(order.indexOf('tofu')).toBe(order.indexOf('deployer') + 1)

    // POST saves too; an app with only a title is inactive, last and plain.
    await save('runner', { title: 'Runner', id: 'ignored' }, 'POST')
    const runner = {
      id: 'runner',
      active: false,
      priority: 0,
      title: 'Runner',
      icon: '',
      color: '',
      dark_color: '',
      path: '',
      args: null,
    }
    expect(await get('runner')).toEqual(runner)
    expect((await list()).at(-1)).toEqual(runner)
    await expectMissing('ignored')
    await setActive('runner', true)
    expect((await get('runner')).active).toBe(true)
    await setActive('runner', false)
    expect((await get('runner')).active).toBe(false)

    // An app saved with nothing at all is still known.
    await save('blank', {})
    expect(await get('blank')).toEqual({ ...runner, id: 'blank', title: 'blank' })

    // Saving replaces the settings: what is not sent returns to its default.
    await save('deployer', { title: 'Deployer 2', priority: 10, args: ['-a'] })
    expect(await get('deployer')).toEqual({
      ...runner,
      id: 'deployer',
      title: 'Deployer 2',
      priority: 10,
      args: ['-a'],
    })
  })

  it('removes stored values given as empty strings or empty lists, back to the defaults', async () => {
    const custom = {
      title: 'My Ansible',
      icon: 'star',
      color: '#000000',
      dark_color: '#eeeeee',
      path: '/usr/local/bin/ansible-playbook',
      args: ['-v'],
      priority: -1,
      active: true,
    }
    await save('ansible', custom)
    expect(await get('ansible')).toEqual({ id: 'ansible', ...custom })
    expect((await list()).at(-1)?.id).toBe('ansible')
    await save('ansible', {
      title: '',
      icon: '',
      color: '',
      dark_color: '',
      path: '',
      args: [],
    })
    expect(await get('ansible')).toEqual(defaultApp('ansible', false))
    expect((await list())[0]).toEqual(defaultApp('ansible', false))
    await save('ansible', { args: ['-v'] })
    await save('ansible', { args: null })
    expect(await get('ansible')).toEqual(defaultApp('ansible', false))
    expect((await settings()).filter((s) => s.key.startsWith('apps.ansible.'))).toEqual([])

    // An explicit state outlives what PATH says, in both directions.
    await setActive('bash', false)
    await setActive('python', true)
    const states = Object.fromEntries((await list()).map((a) => [a.id, a.active]))
    expect([states.bash, states.python]).toEqual([false, true])
    await save('bash', { title: '' })
    expect((await get('bash')).active).toBe(true)
  })

  it('deletes custom apps but never the default ones', async () => {
    await save('temporary', { title: 'Temporary', args: ['x'], active: true })
    for (const id of DEFAULT_APPS) {
      const before = await settings()
      expectError(
        await world.request('DELETE', `/api/apps/${id}`, { as: admin.as }),
        400,
        'Default apps can not be deleted; deactivate it instead',
      )
      expect(await settings()).toEqual(before)
    }
    expect((await list()).map((a) => a.id)).toEqual(expect.arrayContaining([...DEFAULT_APPS]))

    expectNoContent(await world.request('DELETE', '/api/apps/temporary', { as: admin.as }))
    await expectMissing('temporary')
    expect((await settings()).filter((s) => s.key.startsWith('apps.temporary.'))).toEqual([])
    const before = await settings()
    for (const [method, path, json] of [
      ['GET', '/api/apps/temporary', undefined],
      ['DELETE', '/api/apps/temporary', undefined],
      ['POST', '/api/apps/temporary/active', { active: true }],
      ['GET', '/api/apps/never-there', undefined],
    ] as const) {
      expectError(await world.request(method, path, { as: admin.as, json }), 404, 'App not found')
    }
    expect(await settings()).toEqual(before)
  })

  it('lets every signed-in user list apps but only administrators read or change one', async () => {
    await save('guarded', { title: 'Guarded' })
    const before = await settings()
    const writes: Array<[string, string, unknown]> = [
      ['PUT', '/api/apps/guarded', { title: 'Taken' }],
      ['POST', '/api/apps/guarded', { title: 'Taken' }],
      ['PUT', '/api/apps/newcomer', { title: 'New' }],
      ['POST', '/api/apps/guarded/active', { active: true }],
      ['POST', '/api/apps/ansible/active', { active: true }],
      ['DELETE', '/api/apps/guarded', undefined],
    ]
    const reads = ['/api/apps/guarded', '/api/apps/ansible', '/api/apps/unknown']
    for (const path of reads) {
      expectError(await world.request('GET', path, { as: user.as }), 403)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, path, { as: user.as, json }), 403)
    }
    expect((await list(user.as)).map((a) => a.id)).toContain('guarded')
    for (const path of ['/api/apps', ...reads]) {
      expectError(await world.request('GET', path), 401)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, path, { json }), 401)
    }
    expect(await settings()).toEqual(before)
  })

  it('refuses malformed, mistyped and out-of-range input with a 400 and writes nothing', async () => {
    await save('sturdy', { title: 'Sturdy', active: true })
    const before = await settings()
    const bodies: Array<[string, HttpOptions]> = [
      ['malformed JSON', { raw: '{"title": ', headers: JSON_HEADERS }],
      ['an empty body', { raw: '', headers: JSON_HEADERS }],
      ['no body', {}],
      ['null', { raw: 'null', headers: JSON_HEADERS }],
      ['an array', { json: [{ title: 'x' }] }],
      ['a string', { json: 'x' }],
      ['active as text', { json: { active: 'yes' } }],
      ['active as null', { json: { active: null } }],
      ['priority as a fraction', { json: { priority: 1.5 } }],
      ['priority as text', { json: { priority: '1' } }],
      ['priority beyond safe integers', { json: { priority: 2 ** 60 } }],
      ['title as a number', { json: { title: 1 } }],
      ['title as null', { json: { title: null } }],
      ['a 256-character title', { json: { title: 'x'.repeat(256) } }],
      ['a 65-character colour', { json: { color: 'x'.repeat(65) } }],
      ['a long path', { json: { path: 'x'.repeat(1025) } }],
      ['a NUL character', { json: { title: 'a\u0000b' } }],
      ['args as text', { json: { args: '-v' } }],
      ['args of numbers', { json: { args: [1] } }],
      ['101 args', { json: { args: Array.from({ length: 101 }, () => '-v') } }],
      ['a 1025-character arg', { json: { args: ['x'.repeat(1025)] } }],
    ]
    const cases: Array<[string, string, string, HttpOptions]> = []
    for (const [label, options] of bodies) {
      cases.push([`PUT ${label}`, 'PUT', '/api/apps/sturdy', options])
      cases.push([`POST ${label}`, 'POST', '/api/apps/sturdy', options])
      cases.push([`PUT new ${label}`, 'PUT', '/api/apps/fresh', options])
    }
    for (const [label, options] of [
      ['malformed JSON', { raw: '{"active": tru', headers: JSON_HEADERS }],
      ['no body', {}],
      ['an empty object', { json: {} }],
      ['active as text', { json: { active: 'true' } }],
      ['active as a number', { json: { active: 1 } }],
    ] as Array<[string, HttpOptions]>) {
      cases.push([`active ${label}`, 'POST', '/api/apps/sturdy/active', options])
    }
    for (const id of ['Ansible', 'a.b', '1abc', '-x', 'a b', 'x'.repeat(33), 'é']) {
      const path = `/api/apps/${encodeURIComponent(id)}`
      cases.push([`GET ${id}`, 'GET', path, {}])
      cases.push([`PUT ${id}`, 'PUT', path, { json: { title: 'x' } }])
      cases.push([`POST ${id}`, 'POST', path, { json: { title: 'x' } }])
      cases.push([`active ${id}`, 'POST', `${path}/active`, { json: { active: true } }])
      cases.push([`DELETE ${id}`, 'DELETE', path, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, path, { as: admin.as, ...options })
      expectRefused(result, label)
      expect(result.status, label).toBe(400)
    }
    expect(await settings()).toEqual(before)
    expect(await get('sturdy')).toMatchObject({ title: 'Sturdy', active: true })
  })

  it('ignores fields apps do not have, storing only what it declares', async () => {
    await save('tolerant', { title: 'Tolerant', colour: 'colour-value' })
    await save('tolerant', { title: 'Tolerant posted', colour: 'colour-value' }, 'POST')
    expect(await get('tolerant')).toMatchObject({ title: 'Tolerant posted' })
    const stored = (await settings()).filter((s) => s.key.startsWith('apps.tolerant.'))
    expect(stored.map((s) => s.key)).not.toContain('apps.tolerant.colour')
    expect(JSON.stringify(stored)).not.toContain('colour-value')
    // Setting whether an app is active changes nothing else, whatever else the body holds.
    await setActive('tolerant', true)
    expectNoContent(
      await world.request('POST', '/api/apps/tolerant/active', {
        as: admin.as,
        json: { active: false, title: 'ignored title' },
      }),
    )
    expect(await get('tolerant')).toMatchObject({ title: 'Tolerant posted', active: false })
  })
})
