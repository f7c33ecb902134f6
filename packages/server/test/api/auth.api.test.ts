import { readFileSync } from 'node:fs'
import { ApiToken, CurrentUser, LoginMetadata, Project, SystemInfo } from '@flagman/contract'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import {
  expectBody,
  expectError,
  expectNoContent,
  http,
  type Credentials,
} from '../support/http.js'
import { ADMIN, startTestServer, type TestServer } from '../support/server.js'

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

describe.each(dialects())('sign-in and tokens on %s', (dialect) => {
  let server: TestServer
  let world: World
  let carol: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    carol = await world.newUser({ username: 'Carol', email: 'Carol.Smith@Example.test' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function whoAmI(as: Credentials): Promise<number> {
    return expectBody(await world.request('GET', '/api/user', { as }), 200, CurrentUser).id
  }

  it('signs in by username or email, ignoring case', async () => {
    for (const auth of ['carol', 'CAROL', 'carol.smith@example.TEST']) {
      expect(await whoAmI(await world.signIn(auth, carol.password))).toBe(carol.id)
    }
  })

  it('answers a wrong password and an unknown user with the same 401 and no cookie', async () => {
    const wrongPassword = await world.request('POST', '/api/auth/login', {
      json: { auth: 'carol', password: 'not-her-password' },
    })
    const unknownUser = await world.request('POST', '/api/auth/login', {
      json: { auth: 'nobody-here', password: carol.password },
    })
    const text = expectError(wrongPassword, 401)
    expectError(unknownUser, 401, text)
    expect(wrongPassword.headers.get('set-cookie')).toBeNull()
    expect(unknownUser.headers.get('set-cookie')).toBeNull()
  })

  it('sets an HttpOnly, SameSite=Lax session cookie for the whole site, not Secure over http', async () => {
    const result = await world.request('POST', '/api/auth/login', {
      json: { auth: carol.username, password: carol.password },
    })
    expectNoContent(result)
    const [session, marker] = result.headers.getSetCookie()
    const [pair, ...attributes] = (session ?? '').split(';').map((part) => part.trim())
    expect(pair).toMatch(/^semaphore=[A-Za-z0-9_-]{20,}$/)
    // The marker for scripts carries no credential and is readable from JavaScript.
    const [markerPair, ...markerAttributes] = (marker ?? '').split(';').map((p) => p.trim())
    expect(markerPair).toBe('signed_in_semaphore=1')
    expect(markerAttributes).toEqual(expect.arrayContaining(['Path=/', 'SameSite=Lax']))
    expect(markerAttributes).not.toContain('HttpOnly')
    expect(attributes).toEqual(expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax']))
    expect(attributes.map((a) => a.toLowerCase())).not.toContain('secure')
    // Proxy headers are not believed unless FLAGMAN_TRUST_PROXY says so.
    const spoofed = await world.request('POST', '/api/auth/login', {
      json: { auth: carol.username, password: carol.password },
      headers: { 'X-Forwarded-Proto': 'https' },
    })
    expectNoContent(spoofed)
    expect(spoofed.headers.get('set-cookie') ?? '').not.toMatch(/;\s*secure/i)
    const proxied = await world.request('POST', '/api/auth/login', {
      json: { auth: carol.username, password: carol.password },
      headers: { Origin: 'https://flagman.example', 'X-Forwarded-Host': 'flagman.example' },
    })
    expectError(proxied, 403, /cross-site/i)
  })

  it('ends the session on logout: the cookie no longer works', async () => {
    const as = await world.signIn(carol.username, carol.password)
    expect(await whoAmI(as)).toBe(carol.id)
    const result = await world.request('POST', '/api/auth/logout', { as })
    expectNoContent(result)
    const cleared = result.headers.getSetCookie()
    expect(cleared).toHaveLength(2)
    expect(cleared[0]).toMatch(/^semaphore=;.*Expires=Thu, 01 Jan 1970/)
    expect(cleared[1]).toMatch(/^signed_in_semaphore=;.*Expires=Thu, 01 Jan 1970/)
    const stale = await world.request('GET', '/api/user', { as })
    expectError(stale, 401)
    // A call with the ended session's cookie clears both cookies again, so that the marker
    // never tells a script it is signed in when it is not.
    expect(stale.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual([
      'semaphore',
      'signed_in_semaphore',
    ])
    // Other sessions of the same user are not affected.
    expect(await whoAmI(carol.as)).toBe(carol.id)
  })

  it('describes the sign-in methods to anyone', async () => {
    const result = await world.request('GET', '/api/auth/login')
    const metadata = expectBody(result, 200, LoginMetadata)
    expect(result.body).toEqual({ oidc_providers: [], login_with_password: true, auth_methods: {} })
    expect(metadata.login_with_password).toBe(true)
  })

  it('tells a signed-in user about the server, and nobody else', async () => {
    expectError(await world.request('GET', '/api/info'), 401)
    const result = await world.request('GET', '/api/info', { as: carol.as })
    expectBody(result, 200, SystemInfo)
    expect(result.body).toEqual({
      version: VERSION,
      ansible: expect.any(String),
      web_host: `http://localhost:${new URL(server.url).port}`,
      use_remote_runner: false,
      auth_methods: {},
      premium_features: { project_runners: true, terraform_backend: true },
      schedule_timezone: 'UTC',
      password_min_length: expect.any(Number),
      // Task history and the activity log are kept for ever unless configured otherwise.
      task_retention_days: 0,
      event_retention_days: 0,
    })
  })

  it('returns the current user without the password', async () => {
    const result = await world.request('GET', '/api/user', { as: carol.as })
    expectBody(result, 200, CurrentUser)
    expect(result.body).toEqual({
      id: carol.id,
      created: expect.stringMatching(ISO_TIME),
      username: 'Carol',
      name: carol.name,
      email: 'Carol.Smith@Example.test',
      admin: false,
      external: false,
      alert: false,
      pro: false,
      can_create_project: false,
      has_active_subscription: false,
    })
    const admin = await world.admin()
    const adminResult = await world.request('GET', '/api/user', { as: admin.as })
    expect(expectBody(adminResult, 200, CurrentUser)).toMatchObject({
      username: ADMIN.login,
      admin: true,
      can_create_project: true,
    })
    expectError(await world.request('GET', '/api/user'), 401)
  })

  it('creates API tokens shown once, lists only their prefix, and expires them', async () => {
    const before = await world.request('GET', '/api/user/tokens', { as: carol.as })
    expect(expectBody(before, 200, z.array(ApiToken))).toEqual([])

    const created = await world.request('POST', '/api/user/tokens', { as: carol.as })
    const token = expectBody(created, 201, ApiToken)
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[a-z0-9_=-]{44}$/),
      created: expect.stringMatching(ISO_TIME),
      expired: false,
      user_id: carol.id,
      name: '',
      expires_at: null,
      last_used: null,
      prefix: token.id.slice(0, 8),
    })
    expect(token.id).toBe(token.id.toLowerCase())

    const listed = await world.request('GET', '/api/user/tokens', { as: carol.as })
    const unused = {
      id: token.id.slice(0, 8),
      created: token.created,
      user_id: carol.id,
      name: '',
      expires_at: null,
      last_used: null,
      prefix: token.id.slice(0, 8),
    }
    expect(listed.body).toEqual([{ ...unused, expired: false }])
    expect(listed.text).not.toContain(token.id)

    // The token signs in on its own, and the Bearer scheme is case-insensitive.
    expect(await whoAmI({ token: token.id })).toBe(carol.id)
    const lowerScheme = await world.request('GET', '/api/user', {
      headers: { Authorization: `bearer ${token.id}` },
    })
    expect(expectBody(lowerScheme, 200, CurrentUser).id).toBe(carol.id)

    // Someone else can not expire it: the call succeeds but touches only their own tokens.
    const other = await world.newUser()
    expectNoContent(
      await world.request('DELETE', `/api/user/tokens/${token.id.slice(0, 8)}`, { as: other.as }),
    )
    expect(await whoAmI({ token: token.id })).toBe(carol.id)

    expectNoContent(
      await world.request('DELETE', `/api/user/tokens/${token.id.slice(0, 8)}`, { as: carol.as }),
    )
    expectError(await world.request('GET', '/api/user', { as: { token: token.id } }), 401)
    const afterExpiry = await world.request('GET', '/api/user/tokens', { as: carol.as })
    expect(afterExpiry.body).toEqual([
      { ...unused, expired: true, last_used: expect.stringMatching(ISO_TIME) },
    ])
  })

  it('expires a token named by its whole value too', async () => {
    const token = await world.token(carol)
    expect(await whoAmI({ token })).toBe(carol.id)
    expectNoContent(await world.request('DELETE', `/api/user/tokens/${token}`, { as: { token } }))
    expectError(await world.request('GET', '/api/user', { as: { token } }), 401)
  })

  it('lets a bearer token win over a session cookie', async () => {
    const admin = await world.admin()
    const token = await world.token(carol)
    expect(await whoAmI({ cookie: admin.as.cookie, token })).toBe(carol.id)
    // A bad token is not rescued by a good cookie.
    expectError(
      await world.request('GET', '/api/user', {
        as: { cookie: admin.as.cookie, token: 'x'.repeat(44) },
      }),
      401,
    )
  })
})

// The failure count lives in memory, not in the database: one dialect is enough.
describe.each(dialects().slice(0, 1))('sign-in throttling on %s', (dialect) => {
  it('refuses an account for a while after repeated failures from one address', async () => {
    const guarded = await startTestServer(dialect, {
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '3',
      FLAGMAN_LOGIN_LOCK_SECONDS: '1',
    })
    try {
      const login = (auth: string, password: string) =>
        http(guarded.url, 'POST', '/api/auth/login', { json: { auth, password } })
      expectError(await login(ADMIN.login, 'wrong-1'), 401)
      expectError(await login('nobody', 'wrong-2'), 401)
      expectError(await login(ADMIN.login, 'wrong-3'), 401)
      // Failures for other names do not count against this one.
      expectNoContent(await login(ADMIN.login, ADMIN.password))
      for (const attempt of ['wrong-4', 'wrong-5', 'wrong-6']) {
        expectError(await login(ADMIN.login, attempt), 401)
      }

      // Now even the right password is refused until the lock ends.
      const refused = await login(ADMIN.login, ADMIN.password)
      expectError(refused, 429, /^Too many failed sign-in attempts\. Try again in 1 second\.$/)
      expect(Number(refused.headers.get('retry-after'))).toBe(1)
      expect(refused.headers.get('set-cookie')).toBeNull()
      // Another account from the same address is not locked.
      expectError(await login('nobody', 'wrong-7'), 401)

      // Once the lock is over, the right password works again.
      const deadline = Date.now() + 10_000
      let result = await login(ADMIN.login, ADMIN.password)
      while (result.status === 429 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50))
        result = await login(ADMIN.login, ADMIN.password)
      }
      expectNoContent(result)
    } finally {
      await guarded.stop()
    }
  }, 60_000)
})

describe.each(dialects().slice(0, 1))('sign-in behind a trusted proxy on %s', (dialect) => {
  let proxied: TestServer

  beforeAll(async () => {
    proxied = await startTestServer(dialect, {
      FLAGMAN_TRUST_PROXY: 'true',
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '3',
      FLAGMAN_LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '6',
      FLAGMAN_LOGIN_LOCK_SECONDS: '600',
    })
  })
  afterAll(async () => {
    await proxied?.stop()
  })

  const login = (password: string, headers: Record<string, string>, auth = ADMIN.login) =>
    http(proxied.url, 'POST', '/api/auth/login', { json: { auth, password }, headers })

  it('marks the session cookie Secure when the proxy says the browser uses HTTPS', async () => {
    const client = { 'X-Forwarded-For': '198.51.100.1' }
    const https = await login(ADMIN.password, { ...client, 'X-Forwarded-Proto': 'https' })
    expectNoContent(https)
    const attributes = (https.headers.get('set-cookie') ?? '').split(';').map((a) => a.trim())
    expect(attributes).toEqual(
      expect.arrayContaining(['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure']),
    )
    const plain = await login(ADMIN.password, { ...client, 'X-Forwarded-Proto': 'http' })
    expectNoContent(plain)
    expect(plain.headers.get('set-cookie') ?? '').not.toMatch(/;\s*secure/i)
  })

  it('checks the Origin against the host the browser used', async () => {
    const headers = {
      'X-Forwarded-For': '198.51.100.2',
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'flagman.example',
    }
    expectNoContent(await login(ADMIN.password, { ...headers, Origin: 'https://flagman.example' }))
    expectError(await login(ADMIN.password, { ...headers, Origin: 'https://evil.example' }), 403)
  })

  it('lets only as many parallel guesses through as failures are allowed, per account', async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.7' }
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login(`wrong-${i}`, attacker)),
    )
    const statuses = burst.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(7).fill(429)])
    for (const refused of burst.filter((r) => r.status === 429)) {
      expectError(refused, 429, /try again/i)
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    }
    // The account is now locked for this address, even with the right password; other
    // addresses are not, and neither are other accounts from this address.
    expectError(await login(ADMIN.password, attacker), 429)
    expectNoContent(await login(ADMIN.password, { 'X-Forwarded-For': '203.0.113.8' }))
    expectError(await login('wrong', attacker, 'someone-else'), 401)
  })

  it('lets only as many parallel guesses through as the address may fail, across accounts', async () => {
    const attacker = { 'X-Forwarded-For': '203.0.113.9' }
    // Two guesses for each of five names: each name stays under its own limit of three.
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => login('wrong', attacker, `name-${i % 5}`)),
    )
    const statuses = burst.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(6).fill(401), ...Array(4).fill(429)])
    // The whole address is locked out now, whatever the account.
    expectError(await login(ADMIN.password, attacker), 429, /try again/i)
    expectError(await login('wrong', attacker, 'a-new-name'), 429)
    expectNoContent(await login(ADMIN.password, { 'X-Forwarded-For': '203.0.113.10' }))
  })
})

describe.each(dialects().slice(0, 1))('sign-in and project settings on %s', (dialect) => {
  it('turns off password sign-in and says so in the sign-in metadata', async () => {
    const closed = await startTestServer(dialect, { FLAGMAN_PASSWORD_LOGIN_DISABLE: 'true' })
    try {
      const metadata = await http(closed.url, 'GET', '/api/auth/login')
      expect(expectBody(metadata, 200, LoginMetadata).login_with_password).toBe(false)
      const refused = await http(closed.url, 'POST', '/api/auth/login', {
        json: { auth: ADMIN.login, password: ADMIN.password },
      })
      expectError(refused, 400, /disabled/)
      expect(refused.headers.get('set-cookie')).toBeNull()
    } finally {
      await closed.stop()
    }
  })

  it('lets users who are not administrators create projects when allowed, as owners', async () => {
    const open = await startTestServer(dialect, { FLAGMAN_NON_ADMIN_CAN_CREATE_PROJECT: 'true' })
    try {
      const world = new World(open)
      const dave = await world.newUser()
      const me = await world.request('GET', '/api/user', { as: dave.as })
      expect(expectBody(me, 200, CurrentUser).can_create_project).toBe(true)
      const created = await world.request('POST', '/api/projects', {
        as: dave.as,
        json: { name: 'Dave made this' },
      })
      const project = expectBody(created, 201, Project)
      const role = await world.request('GET', `/api/project/${project.id}/role`, { as: dave.as })
      expect(role.body).toEqual({ role: 'owner', permissions: 15 })
    } finally {
      await open.stop()
    }
  })
})
