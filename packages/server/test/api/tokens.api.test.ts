import { ApiToken, CurrentUser } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import {
  expectBody,
  expectError,
  expectNoContent,
  type Credentials,
  type HttpResult,
} from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

describe.each(dialects())('API tokens on %s', (dialect) => {
  let server: TestServer
  let world: World
  let dana: Person
  let eve: Person
  let db: Db

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    dana = await world.newUser()
    eve = await world.newUser()
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  async function list(person: Person): Promise<ApiToken[]> {
    const result = await world.request('GET', '/api/user/tokens', { as: person.as })
    return expectBody(result, 200, z.array(ApiToken))
  }

  function create(person: Person, json?: unknown): Promise<HttpResult> {
    return world.request('POST', '/api/user/tokens', {
      as: person.as,
      ...(json === undefined ? {} : { json }),
    })
  }

  async function whoAmI(as: Credentials): Promise<number | null> {
    const result = await world.request('GET', '/api/user', { as })
    if (result.status === 401) return null
    return expectBody(result, 200, CurrentUser).id
  }

  it('creates a named token with an expiry, shown whole once and listed by its prefix', async () => {
    const expiresAt = new Date(Date.now() + 7 * 24 * 3600 * 1000)
    const created = await create(dana, {
      name: '  deploy bot  ',
      expires_at: expiresAt.toISOString().replace('Z', '+00:00'),
    })
    const token = expectBody(created, 201, ApiToken)
    expect(token).toEqual({
      id: expect.stringMatching(/^[a-z0-9_=-]{44}$/),
      prefix: token.id.slice(0, 8),
      name: 'deploy bot',
      created: expect.stringMatching(ISO_TIME),
      expires_at: expiresAt.toISOString(),
      last_used: null,
      expired: false,
      user_id: dana.id,
    })

    const listed = await world.request('GET', '/api/user/tokens', { as: dana.as })
    expect(listed.body).toEqual([{ ...token, id: token.id.slice(0, 8) }])
    // The whole token is never shown again, nor its hash.
    expect(listed.text).not.toContain(token.id)
    const row = await db.kysely
      .selectFrom('api_token')
      .selectAll()
      .where('prefix', '=', token.prefix)
      .executeTakeFirstOrThrow()
    expect(JSON.stringify(row)).not.toContain(token.id)
    expect(listed.text).not.toContain(row.token_hash)
  })

  it('records when a token was last used, at most once a minute', async () => {
    const token = expectBody(await create(dana, { name: 'ci' }), 201, ApiToken)
    expect(await whoAmI({ token: token.id })).toBe(dana.id)
    const first = (await list(dana)).find((t) => t.prefix === token.prefix)
    expect(first?.last_used).toMatch(ISO_TIME)
    expect(Date.parse(first!.last_used!)).toBeGreaterThanOrEqual(Date.parse(token.created))

    await sleep(20)
    expect(await whoAmI({ token: token.id })).toBe(dana.id)
    const second = (await list(dana)).find((t) => t.prefix === token.prefix)
    expect(second?.last_used).toBe(first?.last_used)

    // A minute later it is written again.
    await db.kysely
      .updateTable('api_token')
      .set({ last_used: '2020-01-01T00:00:00.000Z' })
      .where('prefix', '=', token.prefix)
      .execute()
    expect(await whoAmI({ token: token.id })).toBe(dana.id)
    const third = (await list(dana)).find((t) => t.prefix === token.prefix)
    expect(Date.parse(third!.last_used!)).toBeGreaterThan(Date.parse(first!.last_used!) - 1000)
  })

  it('refuses a token once it has expired, with 401', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString()
    const token = expectBody(
      await create(dana, { name: 'short', expires_at: expiresAt }),
      201,
      ApiToken,
    )
    expect(await whoAmI({ token: token.id })).toBe(dana.id)
    await sleep(Date.parse(expiresAt) - Date.now() + 100)
    expectError(await world.request('GET', '/api/user', { as: { token: token.id } }), 401)
    expect((await list(dana)).find((t) => t.prefix === token.prefix)).toMatchObject({
      expired: true,
      expires_at: expiresAt,
    })
  })

  it('still creates an unnamed token that never expires without a body', async () => {
    const token = expectBody(await create(dana), 201, ApiToken)
    expect(token).toMatchObject({ name: '', expires_at: null, expired: false })
    expect(await whoAmI({ token: token.id })).toBe(dana.id)
    expectBody(await create(dana, {}), 201, ApiToken)
    expectBody(await create(dana, { expires_at: null }), 201, ApiToken)
  })

  it('refuses a bad name or expiry with 400 and creates nothing', async () => {
    const before = (await list(dana)).length
    const cases: Array<[unknown, RegExp]> = [
      [
        { expires_at: new Date(Date.now() - 60_000).toISOString() },
        /expires_at must be in the future/,
      ],
      [{ expires_at: 'tomorrow' }, /expires_at must be a date and time/],
      [{ expires_at: '2031-01-01' }, /expires_at must be a date and time/],
      [{ expires_at: 12 }, /expires_at/],
      [{ name: 'n'.repeat(101) }, /name must be at most 100 characters/],
      [{ name: 5 }, /name must be a string/],
      [{ name: 'a\u0000b' }, /NUL/],
      [[], /expected object|must be/i],
    ]
    for (const [json, message] of cases) {
      expectError(await create(dana, json), 400, message)
    }
    expect(await list(dana)).toHaveLength(before)
  })

  it('ignores a token chosen by the caller: the server makes its own', async () => {
    const created = expectBody(await create(dana, { token: 'chosen', name: 'mine' }), 201, ApiToken)
    expect(created.id).not.toBe('chosen')
    expect(created.name).toBe('mine')
    expect(await whoAmI({ token: created.id })).toBe(dana.id)
    expectError(await world.request('GET', '/api/user', { as: { token: 'chosen' } }), 401)
  })

  it("revokes a token; another user's tokens are neither listed nor revocable", async () => {
    const token = expectBody(await create(dana, { name: 'to revoke' }), 201, ApiToken)
    const eveList = await world.request('GET', '/api/user/tokens', { as: eve.as })
    expect(eveList.body).toEqual([])
    expect(eveList.text).not.toContain(token.prefix)

    expectNoContent(
      await world.request('DELETE', `/api/user/tokens/${token.prefix}`, { as: eve.as }),
    )
    expect(await whoAmI({ token: token.id })).toBe(dana.id)

    expectNoContent(
      await world.request('DELETE', `/api/user/tokens/${token.prefix}`, { as: dana.as }),
    )
    expectError(await world.request('GET', '/api/user', { as: { token: token.id } }), 401)
    expect((await list(dana)).find((t) => t.prefix === token.prefix)).toMatchObject({
      expired: true,
      name: 'to revoke',
    })
  })

  it('keeps tokens out of events', async () => {
    const token = expectBody(await create(dana, { name: 'quiet' }), 201, ApiToken)
    const events = await db.kysely.selectFrom('event').selectAll().execute()
    expect(JSON.stringify(events)).not.toContain(token.id)
  })
})
