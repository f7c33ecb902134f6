import { CurrentUser, NO_SUBSCRIPTION_NEEDED, Subscription } from '@flagman/contract'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('subscription on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let member: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    member = await world.newUser()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('answers the community edition: every feature, no key, no plan to activate', async () => {
    const subscription = expectBody(
      await world.request('GET', '/api/subscription', { as: admin.as }),
      200,
      Subscription,
    )
    expect(subscription).toEqual({
      key: '',
      plan: 'community',
      state: 'none',
      expiresAt: null,
      users: null,
      all_features_included: true,
    })
    const me = expectBody(
      await world.request('GET', '/api/user', { as: admin.as }),
      200,
      CurrentUser,
    )
    expect(me.has_active_subscription).toBe(false)
  })

  it('refuses every key with a 400 that says no key is needed', async () => {
    for (const key of ['ABCD-1234', '  padded-key  ', 'x'.repeat(4096)]) {
      expectError(
        await world.request('POST', '/api/subscription', { as: admin.as, json: { key } }),
        400,
        NO_SUBSCRIPTION_NEEDED,
      )
    }
  })

  it('requires a key, as the console form does', async () => {
    for (const json of [{ key: '' }, { key: '   ' }, {}]) {
      expectError(
        await world.request('POST', '/api/subscription', { as: admin.as, json }),
        400,
        /^key is required$/i,
      )
    }
    expectError(
      await world.request('POST', '/api/subscription', { as: admin.as, json: { key: 42 } }),
      400,
      /key/,
    )
    expectError(
      await world.request('POST', '/api/subscription', {
        as: admin.as,
        raw: '{"key":',
        headers: { 'Content-Type': 'application/json' },
      }),
      400,
    )
  })

  it('refuses over-long keys with a 4xx and keeps serving', async () => {
    expectError(
      await world.request('POST', '/api/subscription', {
        as: admin.as,
        json: { key: 'k'.repeat(4097) },
      }),
      400,
      /^Key must be at most 4096 characters$/,
    )
    // A key of 10 MB is larger than any request body the server reads: refused unread.
    const tenMegabytes = 10 * 1024 * 1024 + '{"key":""}'.length
    expect(await announceBody(server.url, admin.as.cookie ?? '', tenMegabytes)).toBe(413)
    expect((await world.request('GET', '/api/ping')).status).toBe(200)
  })

  it('is for administrators only', async () => {
    expect((await world.request('GET', '/api/subscription')).status).toBe(401)
    for (const method of ['GET', 'POST']) {
      const result = await world.request(method, '/api/subscription', {
        as: member.as,
        ...(method === 'POST' ? { json: { key: 'ABCD' } } : {}),
      })
      expect(result.status).toBe(403)
    }
  })
})

/** Announces a request body of the given size and answers the status, without sending it. */
function announceBody(baseUrl: string, cookie: string, bytes: number): Promise<number> {
  const url = new URL(baseUrl)
  return new Promise((resolve, reject) => {
    let answer = ''
    const socket = connect(Number(url.port), url.hostname)
    socket.on('data', (data: Buffer) => {
      answer += data.toString('latin1')
      const match = /^HTTP\/1\.1 (\d{3})/.exec(answer)
      if (match) {
        socket.destroy()
        resolve(Number(match[1]))
      }
    })
    socket.on('error', reject)
    socket.on('close', () => reject(new Error('the connection closed without an answer')))
    socket.write(
      `POST /api/subscription HTTP/1.1\r\nHost: ${url.host}\r\nCookie: ${cookie}\r\n` +
        `Origin: ${url.origin}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${bytes}\r\nConnection: close\r\n\r\n`,
    )
  })
}
