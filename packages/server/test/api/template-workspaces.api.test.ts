import { Event, Inventory, SystemInfo, Template } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { ProjectResources, projectRows } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { DEFAULT_APPS, ProjectTemplates, setAppsActive } from '../support/templates.js'

describe.each(dialects())('template workspaces and the terraform backend on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let other: ProjectResources
  let t: ProjectTemplates
  let hosts: Inventory

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    await setAppsActive(world, DEFAULT_APPS, true)
    p = new ProjectResources(world.request.bind(world), admin.as, (await world.newProject()).id)
    other = new ProjectResources(world.request.bind(world), admin.as, (await world.newProject()).id)
    const key = await p.key(unique('none'))
    const repo = await p.repository(unique('repo'), key.id)
    hosts = await p.inventory(unique('hosts'), key.id)
    t = new ProjectTemplates(p, { repository_id: repo.id, inventory_id: hosts.id })
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  const workspace = (fields: Record<string, unknown> = {}) =>
    p.inventory(unique('ws'), null, { type: 'terraform-workspace', inventory: 'w', ...fields })
  const owned = async (template: Template) =>
    (await p.list(`/inventory?template_id=${template.id}`, Inventory)).map((i) => i.id).sort()
  const call = (action: string, template: Template, inventoryId: number) =>
    p.request('POST', `/templates/${template.id}/inventory/${inventoryId}/${action}`)
  const snapshot = () =>
    Promise.all(
      ['template', 'inventory', 'event'].map((table) => projectRows(db, table, p.projectId)),
    )

  it('attaches a free workspace, makes it the default, and detaches it', async () => {
    const tf = await t.create({ app: 'terraform' })
    const first = tf.inventory_id as number
    const extra = await workspace()
    expectNoContent(await call('attach', tf, extra.id))
    expect(await owned(tf)).toEqual([first, extra.id].sort())
    // Attaching what the template already owns changes nothing.
    expectNoContent(await call('attach', tf, extra.id))

    expectNoContent(await call('set_default', tf, extra.id))
    expect((await p.get(`/templates/${tf.id}`, Template)).inventory_id).toBe(extra.id)

    expectNoContent(await call('detach', tf, first))
    expect(await owned(tf)).toEqual([extra.id])
    expect((await p.get(`/inventory/${first}`, Inventory)).template_id).toBeNull()

    const events = await p.list('/events', Event)
    expect(events.map((e) => e.description)).toEqual(
      expect.arrayContaining([
        `Inventory ${extra.id} attached to template ${tf.id}`,
        `Inventory ${first} detached from template ${tf.id}`,
      ]),
    )
  })

  it('refuses what does not fit, changing nothing', async () => {
    const tf = await t.create({ app: 'terraform' })
    const theirs = await t.create({ app: 'terraform' })
    const tofu = await p.inventory(unique('tofu'), null, { type: 'tofu-workspace', inventory: 'w' })
    const free = await workspace()
    const before = await snapshot()
    expectError(
      await call('attach', tf, theirs.inventory_id as number),
      400,
      'Inventory is already attached to another template',
    )
    expectError(
      await call('attach', tf, tofu.id),
      400,
      'Inventory type is not supported for this template',
    )
    expectError(
      await call('attach', tf, hosts.id),
      400,
      'Inventory type is not supported for this template',
    )
    expectError(
      await call('detach', tf, free.id),
      400,
      'Inventory is not attached to this template',
    )
    expectError(
      await call('set_default', tf, free.id),
      400,
      'Inventory is not attached to this template',
    )
    expectError(
      await call('set_default', tf, hosts.id),
      400,
      'Inventory type is not supported for this template',
    )
    // Ids of another project, or of nothing, are not found.
    const foreign = await other.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: 'w',
    })
    expectError(await call('attach', tf, foreign.id), 404)
    expectError(await call('attach', tf, 999_999), 404)
    expectError(await p.request('POST', `/templates/999999/inventory/${free.id}/attach`), 404)
    expectError(await p.request('POST', `/templates/${tf.id}/inventory/x/attach`), 400)
    expect(await snapshot()).toEqual(before)
  })

  it('answers for a workspace without aliases or states, and offers the HTTP backend', async () => {
    const tf = await t.create({ app: 'terraform' })
    const base = `/inventory/${tf.inventory_id}/terraform`
    expect(
      expectBody(await p.request('GET', `${base}/aliases`), 200, z.array(z.unknown())),
    ).toEqual([])
    expect(expectBody(await p.request('GET', `${base}/states`), 200, z.array(z.unknown()))).toEqual(
      [],
    )
    expectError(await p.request('GET', `${base}/states/latest`), 404, 'No state found')
    expectError(await p.request('GET', `${base}/states/1`), 404, 'State not found')
    expectError(await p.request('DELETE', `${base}/states/1`), 404, 'State not found')
    expectError(await p.request('GET', `${base}/aliases/1`), 404)
    expectError(await p.request('PUT', `${base}/aliases/1`, { auth_key_id: 1 }), 404)
    expectError(await p.request('DELETE', `${base}/aliases/1`), 404)
    // A key of another project is not found.
    const foreignKey = await other.key(unique('none'))
    expectError(await p.request('POST', `${base}/aliases`, { auth_key_id: foreignKey.id }), 404)
    expectError(await p.request('POST', `${base}/aliases`, { auth_key_id: 'one' }), 400)
    // A workspace of another project is not found.
    expectError(await other.request('GET', `${base}/aliases`), 404)
    expectError(await other.request('GET', `${base}/states`), 404)
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info).toMatchObject({ premium_features: { terraform_backend: true } })
  })
})
