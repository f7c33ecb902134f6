import { CurrentUser, User } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { createHash, randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type Credentials } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const EXTERNAL = /External users sign in through their identity provider/

describe.each(dialects())('password change on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '3',
      FLAGMAN_LOGIN_LOCK_SECONDS: '2',
    })
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  async function whoAmI(as: Credentials): Promise<number | null> {
    const result = await world.request('GET', '/api/user', { as })
    if (result.status === 401) return null
    return expectBody(result, 200, CurrentUser).id
  }

  function changeOwn(person: Person, json: unknown, as: Credentials = person.as) {
    return world.request('POST', `/api/users/${person.id}/password`, { as, json })
  }

  async function canSignIn(login: string, password: string): Promise<boolean> {
    const result = await world.request('POST', '/api/auth/login', {
      json: { auth: login, password },
    })
    return result.status === 204
  }

  it('asks users changing their own password for the current one', async () => {
    const person = await world.newUser()
    const expectUnchanged = async () =>
      expect(await canSignIn(person.username, person.password)).toBe(true)

    expectError(
      await changeOwn(person, { password: 'new-one-1' }),
      400,
      'current_password is required to change your own password',
    )
    expectError(
      await changeOwn(person, { password: 'new-one-1', current_password: '' }),
      400,
      'current_password is required to change your own password',
    )
    expectError(
      await changeOwn(person, { password: 'new-one-1', current_password: 'not-it' }),
      400,
      'The current password is incorrect',
    )
    await expectUnchanged()
    expect(await whoAmI(person.as)).toBe(person.id)

    expectNoContent(
      await changeOwn(person, { password: 'new-one-1', current_password: person.password }),
    )
    expect(await canSignIn(person.username, person.password)).toBe(false)
    expect(await canSignIn(person.username, 'new-one-1')).toBe(true)
    // The session the change was made in goes on.
    expect(await whoAmI(person.as)).toBe(person.id)
  })

  it('asks for it on the profile update too, and for tokens', async () => {
    const person = await world.newUser()
    const token = await world.token(person)
    const profile = { username: person.username, name: person.name, email: person.email }
    expectError(
      await world.request('PUT', `/api/users/${person.id}`, {
        as: person.as,
        json: { ...profile, password: 'other-pass-1' },
      }),
      400,
      'current_password is required to change your own password',
    )
    // A stolen token alone can not take the account over.
    expectError(
      await world.request('POST', `/api/users/${person.id}/password`, {
        as: { token },
        json: { password: 'other-pass-1' },
      }),
      400,
      'current_password is required to change your own password',
    )
    expectError(
      await world.request('PUT', `/api/users/${person.id}`, {
        as: person.as,
        json: { ...profile, password: 'other-pass-1', current_password: 'wrong' },
      }),
      400,
      'The current password is incorrect',
    )
    // Without a new password the profile saves as before.
    expectNoContent(
      await world.request('PUT', `/api/users/${person.id}`, {
        as: person.as,
        json: { ...profile, name: 'Renamed' },
      }),
    )
    expectNoContent(
      await world.request('PUT', `/api/users/${person.id}`, {
        as: person.as,
        json: { ...profile, password: 'other-pass-1', current_password: person.password },
      }),
    )
    expect(await canSignIn(person.username, 'other-pass-1')).toBe(true)
    // Tokens issued under the old password end; the session of the change goes on.
    expect(await whoAmI({ token })).toBeNull()
    expect(await whoAmI(person.as)).toBe(person.id)
  })

  it('throttles wrong current passwords like sign-in', async () => {
    const person = await world.newUser()
    for (let i = 0; i < 3; i += 1) {
      expectError(
        await changeOwn(person, { password: 'next-pass-1', current_password: `wrong-${i}` }),
        400,
        'The current password is incorrect',
      )
    }
    const locked = await changeOwn(person, {
      password: 'next-pass-1',
      current_password: person.password,
    })
    expectError(locked, 429, /Too many wrong passwords/)
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await canSignIn(person.username, person.password)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 2100))
    expectNoContent(
      await changeOwn(person, { password: 'next-pass-1', current_password: person.password }),
    )
  })

  it('lets an administrator reset another user without it, ending their sessions and tokens', async () => {
    const person = await world.newUser()
    const token = await world.token(person)
    expectNoContent(
      await world.request('POST', `/api/users/${person.id}/password`, {
        as: admin.as,
        json: { password: 'reset-by-admin' },
      }),
    )
    expect(await whoAmI(person.as)).toBeNull()
    expect(await whoAmI({ token })).toBeNull()
    expect(await whoAmI(admin.as)).toBe(admin.id)
    expect(await canSignIn(person.username, 'reset-by-admin')).toBe(true)
    // Administrators changing their own password prove it like anyone else.
    expectError(
      await world.request('POST', `/api/users/${admin.id}/password`, {
        as: admin.as,
        json: { password: 'new-admin-password' },
      }),
      400,
      'current_password is required to change your own password',
    )
  })

  it('refuses a password for external users, who sign in elsewhere', async () => {
    const username = unique('ext')
    const external = expectBody(
      await world.request('POST', '/api/users', {
        as: admin.as,
        json: { username, name: 'External', email: `${username}@example.test`, external: true },
      }),
      201,
      User,
    )
    expect(external.external).toBe(true)
    expectError(
      await world.request('POST', `/api/users/${external.id}/password`, {
        as: admin.as,
        json: { password: 'not-allowed' },
      }),
      400,
      EXTERNAL,
    )
    // Signed in (as single sign-on would), the user can not set one either.
    const token = randomBytes(32).toString('base64url').toLowerCase()
    await db.kysely
      .insertInto('api_token')
      .values({
        user_id: external.id,
        prefix: token.slice(0, 8),
        token_hash: createHash('sha256').update(token).digest('hex'),
        created: new Date().toISOString(),
      })
      .execute()
    expect(await whoAmI({ token })).toBe(external.id)
    for (const current_password of [undefined, 'anything']) {
      expectError(
        await world.request('POST', `/api/users/${external.id}/password`, {
          as: { token },
          json: { password: 'not-allowed', current_password },
        }),
        400,
        EXTERNAL,
      )
    }
    const row = await db.kysely
      .selectFrom('user')
      .select('password')
      .where('id', '=', external.id)
      .executeTakeFirstOrThrow()
    expect(row.password).toBeNull()
  })

  it('keeps the current password out of events', async () => {
    const person = await world.newUser({ password: 'marker-old-password-7731' })
    expectNoContent(
      await changeOwn(person, {
        password: 'marker-new-password-7731',
        current_password: 'marker-old-password-7731',
      }),
    )
    const events = JSON.stringify(await db.kysely.selectFrom('event').selectAll().execute())
    expect(events).not.toContain('marker-')
  })
})
