import { CurrentUser, LoginMetadata, SystemInfo, TotpEnrolment, User } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { TOTP, URI } from 'otpauth'
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

const PERIOD_MS = 30_000

/** The app of a user: codes computed from the secret in the enrolment's otpauth:// address. */
function authenticator(enrolment: TotpEnrolment): TOTP {
  const otp = URI.parse(enrolment.url)
  if (!(otp instanceof TOTP)) throw new Error('not a TOTP address')
  return otp
}

/** The code of the current time step, or of the step `offset` steps later. */
function code(app: TOTP, offset = 0): string {
  return app.generate({ timestamp: Date.now() + offset * PERIOD_MS })
}

/** Waits, when the current 30-second step is about to end, until the next one starts. */
async function awayFromStepEnd(): Promise<void> {
  const left = PERIOD_MS - (Date.now() % PERIOD_MS)
  if (left < 3000) await new Promise((resolve) => setTimeout(resolve, left + 100))
}

function expectEmpty(result: HttpResult, status: number): void {
  expect(result.status, `status (body: ${result.text})`).toBe(status)
  expect(result.text).toBe('')
}

describe.each(dialects())('two-factor sign-in on %s', (dialect) => {
  let server: TestServer
  let world: World
  let db: Db
  let admin: Person

  async function enrol(person: Person): Promise<TotpEnrolment> {
    return expectBody(
      await world.request('POST', `/api/users/${person.id}/2fas/totp`, { as: person.as }),
      200,
      TotpEnrolment,
    )
  }

  /** Signs in by password: a session still waiting for its second factor. */
  async function signIn(person: Person): Promise<Credentials> {
    return world.signIn(person.username, person.password)
  }

  function verify(as: Credentials, passcode: unknown): Promise<HttpResult> {
    return world.request('POST', '/api/auth/verify', { as, json: { passcode } })
  }

  function recover(as: Credentials, recoveryCode: unknown): Promise<HttpResult> {
    return world.request('POST', '/api/auth/recovery', {
      as,
      json: { recovery_code: recoveryCode },
    })
  }

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      FLAGMAN_TOTP_ENABLED: 'true',
      FLAGMAN_TOTP_ALLOW_RECOVERY: 'true',
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '3',
    })
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  it('reports the method in the sign-in metadata and the system info', async () => {
    const metadata = expectBody(await world.request('GET', '/api/auth/login'), 200, LoginMetadata)
    expect(metadata.auth_methods).toEqual({ totp: { allow_recovery: true } })
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.auth_methods).toEqual({ totp: { allow_recovery: true } })
  })

  it('enrols once, shows the secret and recovery code only then, and keeps them safe at rest', async () => {
    const person = await world.newUser()
    const enrolment = await enrol(person)
    expect(enrolment.user_id).toBe(person.id)
    expect(enrolment.url).toMatch(/^otpauth:\/\/totp\//)
    expect(enrolment.url).toContain(encodeURIComponent(person.email))
    expect(enrolment.recovery_code).toMatch(/^[A-Z2-7]{16}$/)
    const secret = authenticator(enrolment).secret.base32

    expectError(
      await world.request('POST', `/api/users/${person.id}/2fas/totp`, { as: person.as }),
      400,
      'TOTP already enabled',
    )

    // Users carry the second factor's id, never its secret nor its recovery code.
    const me = await world.request('GET', '/api/user', { as: person.as })
    expect(expectBody(me, 200, CurrentUser).totp).toEqual({
      id: enrolment.id,
      created: enrolment.created,
      user_id: person.id,
    })
    const one = await world.request('GET', `/api/users/${person.id}`, { as: admin.as })
    expect(expectBody(one, 200, User).totp?.id).toBe(enrolment.id)
    const list = await world.request('GET', '/api/users', { as: admin.as })
    expect(list.status).toBe(200)
    const listed = (list.body as Array<{ id: number; totp?: unknown }>).find(
      (u) => u.id === person.id,
    )
    expect(listed?.totp).toEqual({
      id: enrolment.id,
      created: enrolment.created,
      user_id: person.id,
    })
    for (const answer of [me, one, list]) {
      expect(answer.text).not.toContain(secret)
      expect(answer.text).not.toContain(enrolment.recovery_code)
      expect(answer.text).not.toContain('otpauth')
    }

    // The secret is encrypted with the key-store key, the recovery code only hashed.
    const row = await db.kysely
      .selectFrom('user_totp')
      .selectAll()
      .where('user_id', '=', person.id)
      .executeTakeFirstOrThrow()
    expect(row.secret.startsWith('v1:')).toBe(true)
    expect(row.secret).not.toContain(secret)
    expect(row.recovery_hash).toMatch(/^\$2[aby]\$/)
    expect(row.recovery_hash).not.toContain(enrolment.recovery_code)

    const qr = await world.request('GET', `/api/users/${person.id}/2fas/totp/${enrolment.id}/qr`, {
      as: person.as,
    })
    expect(qr.status).toBe(200)
    expect(qr.headers.get('content-type')).toBe('image/png')
    const png = await (
      await server.fetch(`/api/users/${person.id}/2fas/totp/${enrolment.id}/qr`, {
        headers: { Cookie: person.as.cookie ?? '' },
      })
    ).arrayBuffer()
    expect(Buffer.from(png).subarray(1, 4).toString('latin1')).toBe('PNG')

    // Another user may not enrol, read the QR of, or remove this user's second factor.
    const other = await world.newUser()
    for (const [method, path] of [
      ['POST', `/api/users/${person.id}/2fas/totp`],
      ['GET', `/api/users/${person.id}/2fas/totp/${enrolment.id}/qr`],
      ['DELETE', `/api/users/${person.id}/2fas/totp/${enrolment.id}`],
    ] as const) {
      expect((await world.request(method, path, { as: other.as })).status).toBe(401)
    }

    // Neither the secret nor the recovery code shows up in any event.
    const events = await world.request('GET', '/api/events', { as: admin.as })
    expect(events.status).toBe(200)
    expect(events.text).toContain('Two-factor sign-in enabled')
    expect(events.text).not.toContain(secret)
    expect(events.text).not.toContain(enrolment.recovery_code)
  })

  it('signs in unverified until a 6-digit code is accepted, each code once', async () => {
    await awayFromStepEnd()
    const person = await world.newUser()
    const enrolment = await enrol(person)
    const app = authenticator(enrolment)
    const session = await signIn(person)

    // Every call but the public ones answers TOTP_REQUIRED.
    for (const path of ['/api/user', '/api/info', '/api/projects', '/api/users', '/api/ws']) {
      expectError(await world.request('GET', path, { as: session }), 401, 'TOTP_REQUIRED')
    }
    expect((await world.request('GET', '/api/auth/login', { as: session })).status).toBe(200)
    expect((await world.request('GET', '/api/ping', { as: session })).status).toBe(200)
    expectError(
      await world.request('POST', `/api/users/${person.id}/2fas/totp`, { as: session }),
      401,
      'TOTP_REQUIRED',
    )

    // Five digits, letters and a wrong code are refused.
    expectError(await verify(session, code(app).slice(0, 5)), 400)
    expectError(await verify(session, 'abcdef'), 400)
    const wrong = String((Number(code(app)) + 500_000) % 1_000_000).padStart(6, '0')
    expectError(await verify(session, wrong), 400)
    expectError(await world.request('GET', '/api/user', { as: session }), 401, 'TOTP_REQUIRED')

    const current = code(app)
    expectEmpty(await verify(session, current), 200)
    expect((await world.request('GET', '/api/user', { as: session })).status).toBe(200)
    // A verified session needs nothing more.
    expectEmpty(await verify(session, current), 204)

    // The same code does not verify a second session.
    const second = await signIn(person)
    expectError(await verify(second, current), 400)
    expectError(await world.request('GET', '/api/user', { as: second }), 401, 'TOTP_REQUIRED')
    // The next step's code does (clocks may drift by one step), once.
    expectEmpty(await verify(second, code(app, 1)), 200)
    expect((await world.request('GET', '/api/user', { as: second })).status).toBe(200)
    const third = await signIn(person)
    expectError(await verify(third, code(app, 1)), 400)
    expectError(await verify(third, current), 400)

    // Once a code has been used the QR code (which holds the secret) is gone.
    expectError(
      await world.request('GET', `/api/users/${person.id}/2fas/totp/${enrolment.id}/qr`, {
        as: second,
      }),
      404,
    )

    // Signing out works from an unverified session; API tokens never need a second factor.
    expectNoContent(await world.request('POST', '/api/auth/logout', { as: third }))
    const token = await world.token({ ...person, as: second })
    expect((await world.request('GET', '/api/user', { as: { token } })).status).toBe(200)
  })

  it('throttles repeated wrong codes', async () => {
    const person = await world.newUser()
    const app = authenticator(await enrol(person))
    const session = await signIn(person)
    for (let i = 0; i < 3; i += 1) expectError(await verify(session, '000000'), 400)
    const refused = await verify(session, code(app))
    expectError(refused, 429, /Too many/)
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    // Also from another session of the same user.
    const other = await signIn(person)
    expectError(await verify(other, code(app)), 429)
    expectError(await recover(other, 'AAAAAAAAAAAAAAAA'), 429)
  })

  it('lets a user sign in once with the recovery code, which removes the second factor', async () => {
    const person = await world.newUser()
    const enrolment = await enrol(person)
    const session = await signIn(person)
    expectError(await recover(session, 'AAAAAAAAAAAAAAAA'), 400)
    expectError(await recover(session, ''), 400)
    expectError(await world.request('GET', '/api/user', { as: session }), 401, 'TOTP_REQUIRED')

    expectEmpty(await recover(session, enrolment.recovery_code?.toLowerCase()), 204)
    const me = expectBody(
      await world.request('GET', '/api/user', { as: session }),
      200,
      CurrentUser,
    )
    expect(me.totp).toBeUndefined()
    const rows = await db.kysely
      .selectFrom('user_totp')
      .select('id')
      .where('user_id', '=', person.id)
      .execute()
    expect(rows).toEqual([])
    // Used up: the next sign-in needs no second factor, and the code is worth nothing.
    const next = await signIn(person)
    expect((await world.request('GET', '/api/user', { as: next })).status).toBe(200)
    expectError(await recover(next, enrolment.recovery_code), 400)
  })

  it('lets an administrator remove a user’s second factor', async () => {
    const person = await world.newUser()
    const enrolment = await enrol(person)
    expectNoContent(
      await world.request('DELETE', `/api/users/${person.id}/2fas/totp/${enrolment.id}`, {
        as: admin.as,
      }),
    )
    expectError(
      await world.request('DELETE', `/api/users/${person.id}/2fas/totp/${enrolment.id}`, {
        as: admin.as,
      }),
      400,
      'TOTP not enabled',
    )
    const session = await signIn(person)
    const me = expectBody(
      await world.request('GET', '/api/user', { as: session }),
      200,
      CurrentUser,
    )
    expect(me.totp).toBeUndefined()

    // A user may turn it off themselves, too.
    const again = await enrol({ ...person, as: session })
    expectNoContent(
      await world.request('DELETE', `/api/users/${person.id}/2fas/totp/${again.id}`, {
        as: session,
      }),
    )
    const events = await world.request('GET', '/api/events', { as: admin.as })
    expect(events.text).toContain('removed by an administrator')
  })

  it('refuses sign-in codes without a session', async () => {
    expectError(await verify({}, '123456'), 401)
    expectError(await recover({}, 'AAAAAAAAAAAAAAAA'), 401)
  })
})

describe.each(dialects())('two-factor sign-in settings on %s', (dialect) => {
  let withoutRecovery: TestServer
  let off: TestServer

  beforeAll(async () => {
    ;[withoutRecovery, off] = await Promise.all([
      startTestServer(dialect, { FLAGMAN_TOTP_ENABLED: 'true' }),
      startTestServer(dialect),
    ])
  })
  afterAll(async () => {
    await Promise.all([withoutRecovery?.stop(), off?.stop()])
  })

  it('without recovery: no recovery code, and the recovery route is refused', async () => {
    const world = new World(withoutRecovery)
    const metadata = expectBody(await world.request('GET', '/api/auth/login'), 200, LoginMetadata)
    expect(metadata.auth_methods).toEqual({ totp: { allow_recovery: false } })
    const person = await world.newUser()
    const enrolment = expectBody(
      await world.request('POST', `/api/users/${person.id}/2fas/totp`, { as: person.as }),
      200,
      TotpEnrolment,
    )
    expect(enrolment.recovery_code).toBeUndefined()
    const session = await world.signIn(person.username, person.password)
    expectError(
      await world.request('POST', '/api/auth/recovery', {
        as: session,
        json: { recovery_code: 'AAAAAAAAAAAAAAAA' },
      }),
      403,
      'TOTP_DISABLED',
    )
    expectError(await world.request('GET', '/api/user', { as: session }), 401, 'TOTP_REQUIRED')
  })

  it('turned off: reported nowhere, enrolment and verification refused', async () => {
    const world = new World(off)
    const admin = await world.admin()
    const metadata = expectBody(await world.request('GET', '/api/auth/login'), 200, LoginMetadata)
    expect(metadata.auth_methods).toEqual({})
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.auth_methods).toEqual({})
    expectError(
      await world.request('POST', `/api/users/${admin.id}/2fas/totp`, { as: admin.as }),
      400,
      'TOTP not enabled',
    )
    expectError(
      await world.request('GET', `/api/users/${admin.id}/2fas/totp/1/qr`, { as: admin.as }),
      404,
      'TOTP not enabled',
    )
    for (const [path, json] of [
      ['/api/auth/verify', { passcode: '123456' }],
      ['/api/auth/recovery', { recovery_code: 'AAAAAAAAAAAAAAAA' }],
    ] as const) {
      expectError(await world.request('POST', path, { as: admin.as, json }), 403, 'TOTP_DISABLED')
    }
  })
})
