import {
  Event,
  TerraformAlias,
  TerraformLockStatus,
  TerraformState,
  TerraformStateDiff,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpResult } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

/** A state text of format version 4 with the given resources and root outputs. */
function stateText(
  serial: number,
  resources: Array<{ type: string; name: string; attributes: Record<string, unknown> }>,
  outputs: Record<string, string> = {},
): string {
  return `${JSON.stringify(
    {
      version: 4,
      terraform_version: '1.9.0',
      serial,
      lineage: 'f0e1d2c3-0000-4000-8000-000000000001',
      outputs: Object.fromEntries(
        Object.entries(outputs).map(([name, value]) => [name, { value, type: 'string' }]),
      ),
      resources: resources.map((r) => ({
        mode: 'managed',
        type: r.type,
        name: r.name,
        provider: 'provider["registry.terraform.io/hashicorp/null"]',
        instances: [{ schema_version: 0, attributes: r.attributes }],
      })),
      check_results: null,
    },
    null,
    2,
  )}\n`
}

const LOCK_INFO = {
  ID: 'c4a1a3c0-0000-4000-8000-00000000beef',
  Operation: 'OperationTypeApply',
  Info: '',
  Who: 'alice@laptop',
  Version: '1.9.0',
  Created: '2026-11-24T08:00:00.000000000Z',
  Path: '',
}

describe.each(dialects())('terraform state versions on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let guest: Person
  let runner: Person
  let p: ProjectResources
  let other: ProjectResources

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    guest = await world.newUser()
    runner = await world.newUser()
    const project = await world.newProject()
    await world.addMember(project.id, guest.id, 'guest')
    await world.addMember(project.id, runner.id, 'task_runner')
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    other = new ProjectResources(world.request.bind(world), admin.as, (await world.newProject()).id)
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A fresh workspace of the project with an alias, and calls of the backend protocol. */
  async function workspace(resources: ProjectResources = p) {
    const inventory = await resources.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: unique('w'),
    })
    const base = `/inventory/${inventory.id}/terraform`
    const login = unique('tf')
    const password = `pw-${unique('secret')}`
    const key = await resources.loginPasswordKey(unique('backend'), password, login)
    const alias = expectBody(
      await resources.request('POST', `${base}/aliases`, { auth_key_id: key.id }),
      201,
      TerraformAlias,
    )
    const path = new URL(alias.url).pathname
    const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`
    const backend = (method: string, body?: string, query = '') =>
      world.request(method, `${path}${query}`, {
        ...(body === undefined ? {} : { raw: body }),
        headers: { Authorization: authorization, 'Content-Type': 'application/json' },
      })
    /** Stores a version through the protocol and answers it as the newest version. */
    const push = async (text: string, lockId?: string): Promise<TerraformState> => {
      const result = await backend('POST', text, lockId ? `?ID=${lockId}` : '')
      expect(result.status, result.text).toBe(200)
      const latest = await resources.get(`${base}/states/latest`, TerraformState)
      expect(latest.state).toBe(text)
      return latest
    }
    const lock = async (info: Record<string, unknown> = LOCK_INFO) => {
      const result = await backend('LOCK', JSON.stringify(info))
      expect(result.status, result.text).toBe(200)
    }
    const unlock = async (info: Record<string, unknown> = LOCK_INFO) => {
      const result = await backend('UNLOCK', JSON.stringify(info))
      expect(result.status, result.text).toBe(200)
    }
    return { inventory, base, alias, backend, push, lock, unlock }
  }

  const asPerson = (person: Person, method: string, path: string): Promise<HttpResult> =>
    world.request(method, `${p.base}${path}`, { as: person.as })
  const versions = (base: string, query = '') => p.list(`${base}/states${query}`, TerraformState)
  const events = async () => p.list('/events', Event)

  it('lists versions newest first, without their text, a page at a time', async () => {
    const ws = await workspace()
    expect(await versions(ws.base)).toEqual([])
    expectError(await p.request('GET', `${ws.base}/states/latest`), 404, 'No state found')

    const texts = [1, 2, 3].map((serial) =>
      stateText(serial, [{ type: 'null_resource', name: 'a', attributes: { id: String(serial) } }]),
    )
    const pushed: TerraformState[] = []
    for (const text of texts) pushed.push(await ws.push(text))
    const list = await versions(ws.base)
    expect(list.map((v) => v.id)).toEqual(pushed.map((v) => v.id).reverse())
    for (const version of list) expect(version).not.toHaveProperty('state')
    expect(list[0]).toMatchObject({
      inventory_id: ws.inventory.id,
      project_id: p.projectId,
      source: 'alias',
      alias_id: ws.alias.id,
      task_id: null,
      status: null,
      user_id: null,
      restored_from: null,
      serial: 3,
      lineage: 'f0e1d2c3-0000-4000-8000-000000000001',
      size: Buffer.byteLength(texts[2] ?? ''),
    })

    const ids = list.map((v) => v.id)
    expect((await versions(ws.base, '?limit=2')).map((v) => v.id)).toEqual(ids.slice(0, 2))
    expect((await versions(ws.base, '?limit=2&offset=2')).map((v) => v.id)).toEqual(ids.slice(2))
    expect((await versions(ws.base, '?offset=1')).map((v) => v.id)).toEqual(ids.slice(1))
    expect(await versions(ws.base, '?limit=5&offset=3')).toEqual([])
    for (const query of ['?limit=0', '?limit=x', '?limit=1001', '?offset=-1', '?offset=1.5']) {
      expectError(await p.request('GET', `${ws.base}/states${query}`), 400)
    }
  })

  it('answers the latest version and any version with its text', async () => {
    const ws = await workspace()
    const first = stateText(1, [{ type: 'null_resource', name: 'a', attributes: { id: '1' } }])
    const second = stateText(2, [{ type: 'null_resource', name: 'b', attributes: { id: '2' } }])
    const v1 = await ws.push(first)
    const v2 = await ws.push(second)
    expect(await p.get(`${ws.base}/states/latest`, TerraformState)).toMatchObject({
      id: v2.id,
      state: second,
    })
    const got = await p.get(`${ws.base}/states/${v1.id}`, TerraformState)
    expect(got).toEqual({ ...(await versions(ws.base)).find((v) => v.id === v1.id), state: first })

    // A version of another workspace, or of nothing, is not found here.
    const elsewhere = await workspace()
    const foreign = await elsewhere.push(first)
    expectError(await p.request('GET', `${ws.base}/states/${foreign.id}`), 404, 'State not found')
    expectError(await p.request('GET', `${ws.base}/states/999999`), 404, 'State not found')
    expectError(await p.request('GET', `${ws.base}/states/x`), 400)
  })

  it('refuses other inventories and finds no workspace of another project', async () => {
    const hosts = await p.inventory(unique('hosts'), (await p.key(unique('none'))).id)
    const base = `/inventory/${hosts.id}/terraform`
    // The compatible API answers an empty list for every inventory.
    expect(await versions(base)).toEqual([])
    for (const [method, path] of [
      ['GET', '/states/latest'],
      ['GET', '/states/1'],
      ['GET', '/states/diff?from=1&to=2'],
      ['DELETE', '/states/1'],
      ['POST', '/states/1/restore'],
      ['GET', '/lock'],
      ['DELETE', '/lock'],
    ] as const) {
      expectError(
        await p.request(method, `${base}${path}`),
        400,
        `Inventory ${hosts.name} is not a Terraform/OpenTofu workspace`,
      )
    }
    const foreign = await workspace(other)
    for (const path of ['/states', '/states/latest', '/lock']) {
      expectError(await p.request('GET', `${foreign.base}${path}`), 404, 'Inventory not found')
      expectError(await p.request('GET', `/inventory/999999/terraform${path}`), 404)
    }
    expectError(await p.request('DELETE', `${foreign.base}/lock`), 404)
  })

  it('compares two versions by resource address', async () => {
    const ws = await workspace()
    const from = await ws.push(
      stateText(
        1,
        [
          { type: 'null_resource', name: 'kept', attributes: { id: 'k', note: 'same' } },
          { type: 'null_resource', name: 'changed', attributes: { id: 'c', a: 1, b: 2 } },
          { type: 'random_id', name: 'gone', attributes: { id: 'g' } },
        ],
        { ip: '10.0.0.1', name: 'web' },
      ),
    )
    const to = await ws.push(
      stateText(
        2,
        [
          { type: 'null_resource', name: 'kept', attributes: { id: 'k', note: 'same' } },
          { type: 'null_resource', name: 'changed', attributes: { id: 'c', a: 1, b: 3, c: 4 } },
          { type: 'random_pet', name: 'new', attributes: { id: 'n' } },
        ],
        { ip: '10.0.0.2', name: 'web', url: 'https://web' },
      ),
    )
    const diff = await p.get(
      `${ws.base}/states/diff?from=${from.id}&to=${to.id}`,
      TerraformStateDiff,
    )
    expect(diff).toEqual({
      from: (await versions(ws.base)).find((v) => v.id === from.id),
      to: (await versions(ws.base)).find((v) => v.id === to.id),
      added: [{ address: 'random_pet.new', type: 'random_pet', attributes: [] }],
      changed: [
        { address: 'null_resource.changed', type: 'null_resource', attributes: ['b', 'c'] },
      ],
      removed: [{ address: 'random_id.gone', type: 'random_id', attributes: [] }],
      outputs: ['ip', 'url'],
    })
    expect(diff.from).not.toHaveProperty('state')
    // Backwards, additions are removals.
    const back = await p.get(
      `${ws.base}/states/diff?from=${to.id}&to=${from.id}`,
      TerraformStateDiff,
    )
    expect(back.added.map((r) => r.address)).toEqual(['random_id.gone'])
    expect(back.removed.map((r) => r.address)).toEqual(['random_pet.new'])
    const same = await p.get(`${ws.base}/states/diff?from=${to.id}&to=${to.id}`, TerraformStateDiff)
    expect(same).toMatchObject({ added: [], changed: [], removed: [], outputs: [] })

    const foreign = await (await workspace()).push(stateText(1, []))
    for (const query of [`from=${from.id}&to=${foreign.id}`, `from=999999&to=${to.id}`]) {
      expectError(await p.request('GET', `${ws.base}/states/diff?${query}`), 404, 'State not found')
    }
    for (const query of ['', `from=${from.id}`, `from=x&to=${to.id}`, `from=0&to=${to.id}`]) {
      expectError(await p.request('GET', `${ws.base}/states/diff?${query}`), 400)
    }
  })

  it('restores a version as a new one, and refuses while the state is locked', async () => {
    const ws = await workspace()
    const first = stateText(1, [{ type: 'null_resource', name: 'a', attributes: { id: '1' } }])
    const second = stateText(2, [{ type: 'null_resource', name: 'a', attributes: { id: '2' } }])
    const v1 = await ws.push(first)
    const v2 = await ws.push(second)

    const restored = expectBody(
      await p.request('POST', `${ws.base}/states/${v1.id}/restore`),
      201,
      TerraformState,
    )
    expect(restored).not.toHaveProperty('state')
    expect(restored.id).toBeGreaterThan(v2.id)
    expect(restored).toMatchObject({
      source: 'restore',
      restored_from: v1.id,
      user_id: admin.id,
      user_name: admin.name,
      alias_id: null,
      task_id: null,
      serial: 1,
      size: Buffer.byteLength(first),
    })
    expect(await p.get(`${ws.base}/states/latest`, TerraformState)).toMatchObject({
      id: restored.id,
      state: first,
    })
    // The current text again still makes a version: the history shows the restore.
    const again = expectBody(
      await p.request('POST', `${ws.base}/states/${restored.id}/restore`),
      201,
      TerraformState,
    )
    expect(again.id).toBeGreaterThan(restored.id)
    expect((await versions(ws.base)).map((v) => v.id)).toEqual([
      again.id,
      restored.id,
      v2.id,
      v1.id,
    ])
    expect((await events()).map((e) => e.description)).toContain(
      `Terraform state of workspace ${ws.inventory.name} restored from version ${String(v1.id)}`,
    )

    await ws.lock()
    const before = await versions(ws.base)
    expectError(
      await p.request('POST', `${ws.base}/states/${v2.id}/restore`),
      409,
      /^The state is locked by alice@laptop \(OperationTypeApply\) since .+; unlock it first$/,
    )
    expect(await versions(ws.base)).toEqual(before)
    await ws.unlock()
    expectBody(await p.request('POST', `${ws.base}/states/${v2.id}/restore`), 201, TerraformState)

    expectError(await p.request('POST', `${ws.base}/states/999999/restore`), 404, 'State not found')
  })

  it('deletes a version, but not the current one while the state is locked', async () => {
    const ws = await workspace()
    const v1 = await ws.push(stateText(1, []))
    const v2 = await ws.push(stateText(2, []))
    const v3 = await ws.push(stateText(3, []))
    await ws.lock()
    // An older version is history only: the lock holder does not work on it.
    expectNoContent(await p.request('DELETE', `${ws.base}/states/${v2.id}`))
    expectError(
      await p.request('DELETE', `${ws.base}/states/${v3.id}`),
      409,
      /^The state is locked by alice@laptop \(OperationTypeApply\) since .+; unlock it first$/,
    )
    expect((await versions(ws.base)).map((v) => v.id)).toEqual([v3.id, v1.id])
    await ws.unlock()
    expectNoContent(await p.request('DELETE', `${ws.base}/states/${v3.id}`))
    expect(await p.get(`${ws.base}/states/latest`, TerraformState)).toMatchObject({ id: v1.id })
    expectError(await p.request('DELETE', `${ws.base}/states/${v3.id}`), 404, 'State not found')
    expectError(await p.request('GET', `${ws.base}/states/${v3.id}`), 404, 'State not found')
    const descriptions = (await events()).map((e) => e.description)
    for (const id of [v2.id, v3.id]) {
      expect(descriptions).toContain(
        `Terraform state version ${String(id)} of workspace ${ws.inventory.name} deleted`,
      )
    }
  })

  it('shows who holds the lock, and force-unlocks it', async () => {
    const ws = await workspace()
    const free = { locked: false, info: null, since: null, task_id: null, alias_id: null }
    expect(await p.get(`${ws.base}/lock`, TerraformLockStatus)).toEqual(free)
    // Force-unlocking a free state changes nothing.
    expectNoContent(await p.request('DELETE', `${ws.base}/lock`))

    await ws.lock()
    const status = await p.get(`${ws.base}/lock`, TerraformLockStatus)
    expect(status).toEqual({
      locked: true,
      info: expect.objectContaining({ ID: LOCK_INFO.ID, Who: 'alice@laptop' }),
      since: expect.any(String),
      task_id: null,
      alias_id: ws.alias.id,
    })
    expect(Number.isNaN(Date.parse(status.since ?? ''))).toBe(false)
    // The protocol refuses another lock while this one is held.
    expect((await ws.backend('LOCK', JSON.stringify({ ...LOCK_INFO, ID: 'other' }))).status).toBe(
      423,
    )

    expectNoContent(await p.request('DELETE', `${ws.base}/lock`))
    expect(await p.get(`${ws.base}/lock`, TerraformLockStatus)).toEqual(free)
    expect((await events()).map((e) => e.description)).toContain(
      `Terraform state of workspace ${ws.inventory.name} force-unlocked`,
    )
    // The state can be locked again, by anyone.
    await ws.lock({ ...LOCK_INFO, ID: 'other' })
    await ws.unlock({ ...LOCK_INFO, ID: 'other' })
  })

  it('lets guests and task runners read states and the lock, and nothing more', async () => {
    const ws = await workspace()
    const v1 = await ws.push(stateText(1, []))
    const v2 = await ws.push(stateText(2, []))
    await ws.lock()
    for (const person of [guest, runner]) {
      for (const path of [
        '/states',
        '/states/latest',
        `/states/${v1.id}`,
        `/states/diff?from=${v1.id}&to=${v2.id}`,
        '/lock',
      ]) {
        const result = await asPerson(person, 'GET', `${ws.base}${path}`)
        expect(result.status, `GET ${path}: ${result.text}`).toBe(200)
      }
      expectError(await asPerson(person, 'POST', `${ws.base}/states/${v1.id}/restore`), 403)
      expectError(await asPerson(person, 'DELETE', `${ws.base}/states/${v1.id}`), 403)
      expectError(await asPerson(person, 'DELETE', `${ws.base}/lock`), 403)
    }
    expect((await versions(ws.base)).map((v) => v.id)).toEqual([v2.id, v1.id])
    expect((await p.get(`${ws.base}/lock`, TerraformLockStatus)).locked).toBe(true)
    // Outsiders learn nothing, not even that the workspace exists.
    const outsider = await world.newUser()
    expectError(await asPerson(outsider, 'GET', `${ws.base}/states`), 404)
    expectError(await world.request('GET', `${p.base}${ws.base}/lock`), 401)
  })
})
