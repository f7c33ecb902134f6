import { TerraformAlias, TerraformState } from '@flagman/contract'
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

/*
 * Terraform's and OpenTofu's `http` backend, played as their client sends it: LOCK and UNLOCK
 * with the lock information JSON, GET for the state, POST with `?ID=<lock id>` while locked,
 * DELETE to purge, basic authentication on every request.
 */

function lockInfo(who = 'alice@laptop') {
  return {
    ID: randomUUID(),
    Operation: 'OperationTypeApply',
    Info: '',
    Who: who,
    Version: '1.9.0',
    Created: new Date().toISOString(),
    Path: '',
  }
}

function stateText(serial: number, lineage = 'b1c2d3e4-0000-4000-8000-000000000001'): string {
  return `${JSON.stringify(
    {
      version: 4,
      terraform_version: '1.9.0',
      serial,
      lineage,
      outputs: {},
      resources: [
        {
          mode: 'managed',
          type: 'null_resource',
          name: 'web',
          provider: 'provider["registry.terraform.io/hashicorp/null"]',
          instances: [{ schema_version: 0, attributes: { id: String(serial) } }],
        },
      ],
    },
    null,
    2,
  )}\n`
}

const md5 = (body: Buffer | string) => createHash('md5').update(body).digest('base64')

/**
 * Announces a POST of `size` bytes (as Terraform does, with Content-Length) and answers the
 * status the server gives before any of the body is sent: a body over the limit must be
 * refused without being read.
 */
function announceLargePost(url: string, authorization: string, size: number): Promise<number> {
  const target = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname)
    let received = ''
    socket.on('data', (data) => {
      received += data.toString('latin1')
      const status = /^HTTP\/1\.1 (\d{3})/.exec(received)?.[1]
      if (status !== undefined) {
        socket.destroy()
        resolve(Number(status))
      }
    })
    socket.on('error', reject)
    socket.write(
      `POST ${target.pathname} HTTP/1.1\r\nHost: ${target.host}\r\n` +
        `Authorization: ${authorization}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${String(size)}\r\n\r\n`,
    )
  })
}

describe.each(dialects())('terraform http backend protocol on %s', (dialect) => {
  let server: TestServer
  let world: World
  let p: ProjectResources

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    const admin = await world.admin()
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A workspace with an alias, and raw protocol calls with the alias key's credentials. */
  async function workspace() {
    const inventory = await p.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: unique('w'),
    })
    const base = `/inventory/${inventory.id}/terraform`
    const login = unique('tf')
    const password = `pw-${unique('secret')}`
    const key = await p.loginPasswordKey(unique('backend'), password, login)
    const alias = expectBody(
      await p.request('POST', `${base}/aliases`, { auth_key_id: key.id }),
      201,
      TerraformAlias,
    )
    const url = new URL(alias.url)
    const basic = (user: string, secret: string) =>
      `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`
    /** One protocol request; `auth` null sends no credentials. */
    const call = async (
      method: string,
      options: {
        body?: string | Buffer
        query?: string
        auth?: string | null
        headers?: Record<string, string>
        path?: string
      } = {},
    ) => {
      const headers: Record<string, string> = { ...options.headers }
      const auth = options.auth === undefined ? basic(login, password) : options.auth
      if (auth !== null) headers.Authorization = auth
      if (options.body !== undefined && headers['Content-Type'] === undefined) {
        headers['Content-Type'] = 'application/json'
      }
      const response = await fetch(
        `${server.url}${options.path ?? url.pathname}${options.query ?? ''}`,
        { method, headers, body: options.body as BodyInit | undefined },
      )
      const bytes = Buffer.from(await response.arrayBuffer())
      return { status: response.status, headers: response.headers, bytes, text: bytes.toString() }
    }
    const versions = () => p.list(`${base}/states`, TerraformState)
    return { inventory, base, alias, url, login, password, basic, call, versions }
  }

  it('plays an apply: lock, get nothing, post with the lock id, unlock, then get the state', async () => {
    const ws = await workspace()
    expect(ws.alias.url).toMatch(/\/api\/terraform\/[a-z0-9]{32}$/)
    const info = lockInfo()
    const locked = await ws.call('LOCK', { body: JSON.stringify(info) })
    expect(locked.status).toBe(200)
    expect((await ws.call('GET')).status).toBe(204)
    const text = stateText(1)
    const stored = await ws.call('POST', {
      body: text,
      query: `?ID=${encodeURIComponent(info.ID)}`,
      headers: { 'Content-MD5': md5(text) },
    })
    expect(stored.status, stored.text).toBe(200)
    expect((await ws.call('UNLOCK', { body: JSON.stringify(info) })).status).toBe(200)

    const got = await ws.call('GET')
    expect(got.status).toBe(200)
    expect(got.text).toBe(text)
    expect(got.headers.get('content-md5')).toBe(md5(text))
    expect(got.headers.get('content-type')).toMatch(/application\/json/)
    const [version] = await ws.versions()
    expect(version).toMatchObject({
      serial: 1,
      source: 'alias',
      alias_id: ws.alias.id,
      task_id: null,
    })

    // A plan with -lock=false only reads.
    expect((await ws.call('GET')).text).toBe(text)
    // The same state again stores no new version; a new one does, also without a lock.
    expect((await ws.call('POST', { body: text })).status).toBe(200)
    expect(await ws.versions()).toHaveLength(1)
    expect((await ws.call('PUT', { body: stateText(2) })).status).toBe(200)
    expect((await ws.versions()).map((v) => v.serial)).toEqual([2, 1])
  })

  it('refuses updates that do not carry the holder lock id, and unlocks by force', async () => {
    const ws = await workspace()
    const holder = lockInfo('bob@ci')
    expect((await ws.call('LOCK', { body: JSON.stringify(holder) })).status).toBe(200)
    // Taking it again with the same id is a retry, not a conflict.
    expect((await ws.call('LOCK', { body: JSON.stringify(holder) })).status).toBe(200)

    const other = lockInfo('carol@laptop')
    const refused = await ws.call('LOCK', { body: JSON.stringify(other) })
    expect(refused.status).toBe(423)
    expect(JSON.parse(refused.text)).toMatchObject({ ID: holder.ID, Who: 'bob@ci' })

    for (const query of ['', `?ID=${other.ID}`]) {
      const update = await ws.call('POST', { body: stateText(1), query })
      expect(update.status).toBe(423)
      expect(JSON.parse(update.text)).toMatchObject({ ID: holder.ID })
    }
    expect((await ws.call('DELETE')).status).toBe(423)
    const wrongUnlock = await ws.call('UNLOCK', { body: JSON.stringify(other) })
    expect(wrongUnlock.status).toBe(423)
    expect(await ws.versions()).toEqual([])

    // `terraform force-unlock` sends UNLOCK without lock information; an object without an ID
    // forces it too.
    expect((await ws.call('UNLOCK')).status).toBe(200)
    expect((await ws.call('LOCK', { body: JSON.stringify(holder) })).status).toBe(200)
    expect((await ws.call('UNLOCK', { body: '{"Who":"admin"}' })).status).toBe(200)
    expect((await ws.call('LOCK', { body: JSON.stringify(other) })).status).toBe(200)
    // The first holder's lock is gone: its id no longer opens updates.
    const stale = await ws.call('POST', { body: stateText(1), query: `?ID=${holder.ID}` })
    expect(stale.status).toBe(423)
    expect((await ws.call('UNLOCK', { body: JSON.stringify(other) })).status).toBe(200)
    const late = await ws.call('POST', { body: stateText(1), query: `?ID=${other.ID}` })
    expect(late.status).toBe(409)
    expect(JSON.parse(late.text)).toEqual({ error: expect.stringMatching(/not locked/) })
    // Unlocking a free state succeeds.
    expect((await ws.call('UNLOCK', { body: JSON.stringify(other) })).status).toBe(200)
    expect(await ws.versions()).toEqual([])
  })

  it('purges the state with DELETE', async () => {
    const ws = await workspace()
    expect((await ws.call('POST', { body: stateText(1) })).status).toBe(200)
    expect((await ws.call('POST', { body: stateText(2) })).status).toBe(200)
    expect((await ws.call('DELETE')).status).toBe(200)
    expect((await ws.call('GET')).status).toBe(204)
    expect(await ws.versions()).toEqual([])
  })

  it('answers 401 with a challenge for wrong credentials and 404 for an unknown alias', async () => {
    const ws = await workspace()
    for (const auth of [
      null,
      ws.basic(ws.login, 'wrong'),
      ws.basic('someone', ws.password),
      'Bearer abc',
      'Basic !!!',
    ]) {
      const result = await ws.call('GET', { auth })
      expect(result.status).toBe(401)
      expect(result.headers.get('www-authenticate')).toMatch(/^Basic realm=/)
      expect(JSON.parse(result.text)).toEqual({ error: expect.any(String) })
    }
    for (const path of [
      '/api/terraform/doesnotexist00000000000000000000',
      '/api/terraform/X%20Y',
    ]) {
      const result = await ws.call('GET', { path })
      expect(result.status).toBe(404)
      expect(result.headers.get('www-authenticate')).toBeNull()
    }
    const long = await ws.call('POST', { path: `/api/terraform/${'a'.repeat(90)}`, body: '{}' })
    expect(long.status).toBe(404)
  })

  it('refuses a state that is not a complete JSON object, and stores nothing', async () => {
    const ws = await workspace()
    const text = stateText(1)
    const bad: Array<{ body: string | Buffer; headers?: Record<string, string> }> = [
      { body: '' },
      { body: 'not json' },
      { body: text.slice(0, text.length / 2) },
      { body: '[1,2]' },
      { body: '"state"' },
      { body: Buffer.from([0xff, 0xfe, 0x7b, 0x7d]) },
      { body: text, headers: { 'Content-MD5': md5('something else') } },
    ]
    for (const { body, headers } of bad) {
      const result = await ws.call('POST', { body, headers })
      expect(result.status, result.text).toBe(400)
      expect(JSON.parse(result.text)).toEqual({ error: expect.any(String) })
    }
    for (const body of [
      'garbage',
      '[]',
      '{"Who":"x"}',
      `{"ID":${'1'.repeat(10)}}`,
      JSON.stringify({ ID: 'x'.repeat(300) }),
    ]) {
      expect((await ws.call('LOCK', { body })).status).toBe(400)
    }
    for (const body of ['garbage', '[]', '{"ID":5}']) {
      expect((await ws.call('UNLOCK', { body })).status).toBe(400)
    }
    expect(await ws.versions()).toEqual([])
    expect((await ws.call('GET')).status).toBe(204)
  })

  it('refuses a 100 MB body with 413 and keeps a large incompressible state byte for byte', async () => {
    const ws = await workspace()
    const status = await announceLargePost(
      `${server.url}${ws.url.pathname}`,
      ws.basic(ws.login, ws.password),
      100 * 1024 * 1024,
    )
    expect(status).toBe(413)
    expect(await ws.versions()).toEqual([])

    // About 12 MB that gzip can not shrink: several 4 MiB chunks on every database.
    const noise = randomBytes(9 * 1024 * 1024).toString('base64')
    const text = JSON.stringify({
      version: 4,
      serial: 7,
      lineage: 'big',
      resources: [],
      blob: noise,
    })
    expect((await ws.call('POST', { body: text })).status).toBe(200)
    const got = await ws.call('GET')
    expect(got.status).toBe(200)
    expect(got.bytes.length).toBe(Buffer.byteLength(text))
    expect(got.headers.get('content-md5')).toBe(md5(text))
    const [version] = await ws.versions()
    expect(version).toMatchObject({ serial: 7, lineage: 'big', size: Buffer.byteLength(text) })
  })

  it('lets exactly one of 20 clients racing for the lock win', async () => {
    const ws = await workspace()
    const infos = Array.from({ length: 20 }, (_, i) => lockInfo(`client-${String(i)}`))
    const answers = await Promise.all(
      infos.map((info) => ws.call('LOCK', { body: JSON.stringify(info) })),
    )
    const winners = answers.filter((a) => a.status === 200)
    expect(winners).toHaveLength(1)
    const winner = infos[answers.findIndex((a) => a.status === 200)]
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expect(answer.status).toBe(423)
      expect(JSON.parse(answer.text)).toMatchObject({ ID: winner?.ID })
    }
  })

  it('keeps workspaces apart: an alias opens only its own workspace state', async () => {
    const a = await workspace()
    const b = await workspace()
    expect((await a.call('POST', { body: stateText(5) })).status).toBe(200)
    expect((await b.call('GET')).status).toBe(204)
    // Credentials of one alias do not open the other.
    expect((await b.call('GET', { auth: a.basic(a.login, a.password) })).status).toBe(401)
  })
})
