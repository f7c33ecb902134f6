import { Event, TerraformAlias } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('terraform state aliases on %s', (dialect) => {
  let server: TestServer
  let world: World
  let p: ProjectResources
  let other: ProjectResources

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    const admin = await world.admin()
    p = new ProjectResources(world.request.bind(world), admin.as, (await world.newProject()).id)
    other = new ProjectResources(world.request.bind(world), admin.as, (await world.newProject()).id)
  })
  afterAll(async () => {
    await server?.stop()
  })

  const workspace = async (type = 'terraform-workspace') =>
    p.inventory(unique('ws'), null, { type, inventory: unique('w') })

  it('creates, reads, changes and deletes aliases of a workspace', async () => {
    const ws = await workspace()
    const base = `/inventory/${ws.id}/terraform/aliases`
    expect(await p.list(base, TerraformAlias)).toEqual([])
    const first = await p.loginPasswordKey(unique('k'), 'password-one', 'one')
    const second = await p.loginPasswordKey(unique('k'), 'password-two', 'two')
    const alias = expectBody(
      await p.request('POST', base, { auth_key_id: first.id }),
      201,
      TerraformAlias,
    )
    expect(alias.url).toBe(
      `${server.url.replace('127.0.0.1', 'localhost')}/api/terraform/${alias.url.split('/').at(-1)}`,
    )
    expect(alias.url.split('/').at(-1)).toMatch(/^[a-z0-9]{32}$/)
    expect(alias.auth_key_id).toBe(first.id)
    const another = expectBody(
      await p.request('POST', base, { auth_key_id: first.id }),
      201,
      TerraformAlias,
    )
    expect(another.url).not.toBe(alias.url)
    expect((await p.list(base, TerraformAlias)).map((a) => a.id)).toEqual([alias.id, another.id])
    expect(await p.get(`${base}/${alias.id}`, TerraformAlias)).toEqual(alias)

    expectNoContent(await p.request('PUT', `${base}/${alias.id}`, { auth_key_id: second.id }))
    expect((await p.get(`${base}/${alias.id}`, TerraformAlias)).auth_key_id).toBe(second.id)

    // The key opens the backend with its login and password.
    const open = await fetch(alias.url.replace(/^http:\/\/localhost/, 'http://127.0.0.1'), {
      headers: { Authorization: `Basic ${Buffer.from('two:password-two').toString('base64')}` },
    })
    expect(open.status).toBe(204)

    expectNoContent(await p.request('DELETE', `${base}/${alias.id}`))
    expectError(await p.request('GET', `${base}/${alias.id}`), 404)
    expectError(await p.request('DELETE', `${base}/${alias.id}`), 404)
    const gone = await fetch(alias.url.replace(/^http:\/\/localhost/, 'http://127.0.0.1'), {
      headers: { Authorization: `Basic ${Buffer.from('two:password-two').toString('base64')}` },
    })
    expect(gone.status).toBe(404)

    const events = await p.list('/events', Event)
    const descriptions = events
      .filter((e) => e.object_type === 'terraform_inventory_alias')
      .map((e) => e.description)
    expect(descriptions).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/created$/),
        expect.stringMatching(/updated$/),
        expect.stringMatching(/deleted$/),
      ]),
    )
  })

  it('checks the key and the workspace', async () => {
    const ws = await workspace()
    const base = `/inventory/${ws.id}/terraform/aliases`
    const ssh = await p.key(unique('none'))
    expectError(await p.request('POST', base, { auth_key_id: ssh.id }), 400, /login_password/)
    const foreign = await other.loginPasswordKey(unique('k'), 'password-x')
    expectError(await p.request('POST', base, { auth_key_id: foreign.id }), 404)
    expectError(await p.request('POST', base, { auth_key_id: 987654 }), 404)
    for (const body of [{}, { auth_key_id: 'x' }, { auth_key_id: -1 }, null]) {
      expectError(await p.request('POST', base, body ?? undefined), 400)
    }
    const key = await p.loginPasswordKey(unique('k'), 'password-y')
    const alias = expectBody(
      await p.request('POST', base, { auth_key_id: key.id }),
      201,
      TerraformAlias,
    )
    expectError(await p.request('PUT', `${base}/${alias.id}`, { auth_key_id: ssh.id }), 400)
    expect((await p.get(`${base}/${alias.id}`, TerraformAlias)).auth_key_id).toBe(key.id)

    // Only Terraform/OpenTofu workspaces have aliases; others list none and take none.
    const plain = await p.inventory(unique('static'), ssh.id)
    expect(await p.list(`/inventory/${plain.id}/terraform/aliases`, TerraformAlias)).toEqual([])
    expectError(
      await p.request('POST', `/inventory/${plain.id}/terraform/aliases`, { auth_key_id: key.id }),
      400,
      /not a Terraform\/OpenTofu workspace/,
    )
    const tofu = await workspace('tofu-workspace')
    expectBody(
      await p.request('POST', `/inventory/${tofu.id}/terraform/aliases`, { auth_key_id: key.id }),
      201,
      TerraformAlias,
    )
    // A workspace of another project is not found.
    const theirs = await other.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: 'x',
    })
    expectError(
      await p.request('POST', `/inventory/${theirs.id}/terraform/aliases`, { auth_key_id: key.id }),
      404,
    )
    expectError(await p.request('GET', `/inventory/${ws.id}/terraform/aliases/1`), 404)
  })

  it('refuses to delete a key an alias uses, and deletes aliases with their workspace', async () => {
    const ws = await workspace()
    const key = await p.loginPasswordKey(unique('k'), 'password-z')
    const alias = expectBody(
      await p.request('POST', `/inventory/${ws.id}/terraform/aliases`, { auth_key_id: key.id }),
      201,
      TerraformAlias,
    )
    const refused = await p.request('DELETE', `/keys/${key.id}`)
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ error: expect.stringMatching(/in use/), inUse: true })
    const refs = expectBody(
      await p.request('GET', `/keys/${key.id}/refs`),
      200,
      z.object({ inventories: z.array(z.object({ id: z.number() })) }).loose(),
    )
    expect(refs.inventories.map((i) => i.id)).toContain(ws.id)

    expectNoContent(await p.request('DELETE', `/inventory/${ws.id}`))
    const gone = await fetch(alias.url.replace(/^http:\/\/localhost/, 'http://127.0.0.1'), {
      headers: { Authorization: `Basic ${Buffer.from('deploy:password-z').toString('base64')}` },
    })
    expect(gone.status).toBe(404)
    expectNoContent(await p.request('DELETE', `/keys/${key.id}`))
  })
})
