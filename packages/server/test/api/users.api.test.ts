import { CurrentUser, Event, TeamMember, User, UserSummary } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type Credentials } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

describe.each(dialects())('users on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let bob: Person
  let db: Db

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    bob = await world.newUser()
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  async function allUsers(): Promise<User[]> {
    const result = await world.request('GET', '/api/users', { as: admin.as })
    return expectBody(result, 200, z.array(User))
  }

  async function getUser(id: number): Promise<User> {
    return expectBody(await world.request('GET', `/api/users/${id}`, { as: admin.as }), 200, User)
  }

  async function signedInAs(as: Credentials): Promise<number | null> {
    const result = await world.request('GET', '/api/user', { as })
    if (result.status === 401) return null
    return expectBody(result, 200, CurrentUser).id
  }

  it('lets an admin create, read, list, edit and delete a user', async () => {
    const username = unique('dora')
    const created = await world.request('POST', '/api/users', {
      as: admin.as,
      json: {
        username,
        name: 'Dora Explorer',
        email: `${username}@example.test`,
        password: 'dora-password',
        alert: true,
      },
    })
    const dora = expectBody(created, 201, User)
    expect(created.body).toEqual({
      id: expect.any(Number),
      created: expect.stringMatching(ISO_TIME),
      username,
      name: 'Dora Explorer',
      email: `${username}@example.test`,
      admin: false,
      external: false,
      alert: true,
      pro: false,
    })
    expect(created.text).not.toMatch(/password/)

    expect(await getUser(dora.id)).toEqual(dora)
    expect(await allUsers()).toContainEqual(dora)

    expectNoContent(
      await world.request('PUT', `/api/users/${dora.id}`, {
        as: admin.as,
        json: {
          username: `${username}x`,
          name: 'Dora Renamed',
          email: `${username}x@example.test`,
          alert: false,
          admin: true,
        },
      }),
    )
    expect(await getUser(dora.id)).toEqual({
      ...dora,
      username: `${username}x`,
      name: 'Dora Renamed',
      email: `${username}x@example.test`,
      alert: false,
      admin: true,
    })
    // No password in the update: the old one still works.
    expect(await signedInAs(await world.signIn(`${username}x`, 'dora-password'))).toBe(dora.id)

    expectNoContent(await world.request('DELETE', `/api/users/${dora.id}`, { as: admin.as }))
    expectError(await world.request('GET', `/api/users/${dora.id}`, { as: admin.as }), 404)
    expect((await allUsers()).map((u) => u.id)).not.toContain(dora.id)
  })

  it('lets an admin set a password', async () => {
    const user = await world.createUser()
    expectNoContent(
      await world.request('POST', `/api/users/${user.id}/password`, {
        as: admin.as,
        json: { password: 'brand-new' },
      }),
    )
    expect(await signedInAs(await world.signIn(user.username, 'brand-new'))).toBe(user.id)
  })

  it('shows a non-admin only the id, username and name of everyone', async () => {
    const result = await world.request('GET', '/api/users', { as: bob.as })
    const list = expectBody(result, 200, z.array(UserSummary))
    expect(list.length).toBe((await allUsers()).length)
    expect(list).toContainEqual({ id: admin.id, username: admin.username, name: admin.name })
    for (const item of result.body as object[]) {
      expect(Object.keys(item).sort()).toEqual(['id', 'name', 'username'])
    }
  })

  it('does not let a non-admin create users or touch other users', async () => {
    const before = await allUsers()
    const username = unique('sneaky')
    const create = await world.request('POST', '/api/users', {
      as: bob.as,
      json: { username, name: 'S', email: `${username}@example.test`, password: 'p' },
    })
    // 401, not 403: the compatible API answers so, and scripts rely on it.
    expectError(create, 401, 'Only administrators can do this')

    expectError(await world.request('GET', `/api/users/${admin.id}`, { as: bob.as }), 401)
    const edit = await world.request('PUT', `/api/users/${admin.id}`, {
      as: bob.as,
      json: { username: admin.username, name: 'Hacked', email: admin.email },
    })
    expectError(edit, 401)
    const password = await world.request('POST', `/api/users/${admin.id}/password`, {
      as: bob.as,
      json: { password: 'owned' },
    })
    expectError(password, 401)
    expectError(await world.request('DELETE', `/api/users/${admin.id}`, { as: bob.as }), 401)
    expect(await allUsers()).toEqual(before)
  })

  it('lets a user edit their own name, email and password', async () => {
    const user = await world.newUser()
    expect(
      expectBody(await world.request('GET', `/api/users/${user.id}`, { as: user.as }), 200, User)
        .id,
    ).toBe(user.id)
    const email = `${user.username}.new@example.test`
    expectNoContent(
      await world.request('PUT', `/api/users/${user.id}`, {
        as: user.as,
        json: {
          username: user.username,
          name: 'New Name',
          email,
          password: 'my-new-password',
          current_password: user.password,
        },
      }),
    )
    const me = expectBody(
      await world.request('GET', '/api/user', { as: user.as }),
      200,
      CurrentUser,
    )
    expect(me).toMatchObject({ id: user.id, name: 'New Name', email, admin: false })
    expectError(
      await world.request('POST', '/api/auth/login', {
        json: { auth: user.username, password: user.password },
      }),
      401,
    )
    expect(await signedInAs(await world.signIn(email, 'my-new-password'))).toBe(user.id)
  })

  it('does not let anyone change their own admin flag (401) or a non-admin give pro', async () => {
    const promote = await world.request('PUT', `/api/users/${bob.id}`, {
      as: bob.as,
      json: { username: bob.username, name: bob.name, email: bob.email, admin: true },
    })
    expectError(promote, 401)
    expect((await getUser(bob.id)).admin).toBe(false)

    const pro = await world.request('PUT', `/api/users/${bob.id}`, {
      as: bob.as,
      json: { username: bob.username, name: bob.name, email: bob.email, pro: true },
    })
    expectError(pro, 401)
    expect((await getUser(bob.id)).pro).toBe(false)

    const demote = await world.request('PUT', `/api/users/${admin.id}`, {
      as: admin.as,
      json: { username: admin.username, name: admin.name, email: admin.email, admin: false },
    })
    expectError(demote, 401)
    expect((await getUser(admin.id)).admin).toBe(true)
  })

  it('keeps the last admin: it can be neither deleted nor demoted', async () => {
    const second = await world.createUser({ admin: true })
    // Two admins: one may demote the other.
    expectNoContent(
      await world.request('PUT', `/api/users/${second.id}`, {
        as: admin.as,
        json: { username: second.username, name: second.name, email: second.email, admin: false },
      }),
    )
    expect((await getUser(second.id)).admin).toBe(false)
    // Make sure no other admin is left from earlier tests.
    for (const user of await allUsers()) {
      if (user.admin && user.id !== admin.id) {
        expectNoContent(await world.request('DELETE', `/api/users/${user.id}`, { as: admin.as }))
      }
    }
    const before = await allUsers()
    expect(before.filter((u) => u.admin).map((u) => u.id)).toEqual([admin.id])

    expectError(
      await world.request('DELETE', `/api/users/${admin.id}`, { as: admin.as }),
      400,
      /last administrator/,
    )
    expectError(
      await world.request('PUT', `/api/users/${admin.id}`, {
        as: admin.as,
        json: { username: admin.username, name: admin.name, email: admin.email, admin: false },
      }),
      401,
    )
    expect(await allUsers()).toEqual(before)
    expect(await signedInAs(admin.as)).toBe(admin.id)
  })

  it('refuses duplicate usernames and emails, also when only the case differs', async () => {
    const before = await allUsers()
    const cases = [
      { username: bob.username.toUpperCase(), email: `${unique('x')}@example.test` },
      { username: unique('fresh'), email: bob.email.toUpperCase() },
      { username: admin.username, email: admin.email },
    ]
    for (const clash of cases) {
      const result = await world.request('POST', '/api/users', {
        as: admin.as,
        json: { ...clash, name: 'Clash', password: 'p' },
      })
      expectError(result, 400, /already exists/)
    }
    expect(await allUsers()).toEqual(before)

    const update = await world.request('PUT', `/api/users/${bob.id}`, {
      as: bob.as,
      json: { username: admin.username.toUpperCase(), name: bob.name, email: bob.email },
    })
    expectError(update, 400, 'A user with this username already exists')
    const updateEmail = await world.request('PUT', `/api/users/${bob.id}`, {
      as: admin.as,
      json: { username: bob.username, name: bob.name, email: admin.email.toUpperCase() },
    })
    expectError(updateEmail, 400, 'A user with this email already exists')
    expect(await allUsers()).toEqual(before)

    // Changing only the case of one's own username is not a clash.
    expectNoContent(
      await world.request('PUT', `/api/users/${bob.id}`, {
        as: bob.as,
        json: { username: bob.username.toUpperCase(), name: bob.name, email: bob.email },
      }),
    )
    expect((await getUser(bob.id)).username).toBe(bob.username.toUpperCase())
  })

  it('deletes a user together with their memberships, tokens and sessions', async () => {
    const user = await world.newUser()
    const token = await world.token(user)
    const project = await world.newProject()
    await world.addMember(project.id, user.id, 'manager')
    const rows = async (table: 'project_user' | 'api_token' | 'session') =>
      (await db.kysely.selectFrom(table).select('id').where('user_id', '=', user.id).execute())
        .length
    expect([await rows('project_user'), await rows('api_token'), await rows('session')]).toEqual([
      1, 1, 1,
    ])

    expectNoContent(await world.request('DELETE', `/api/users/${user.id}`, { as: admin.as }))

    expect([await rows('project_user'), await rows('api_token'), await rows('session')]).toEqual([
      0, 0, 0,
    ])
    const team = await world.request('GET', `/api/project/${project.id}/users`, { as: admin.as })
    expect(expectBody(team, 200, z.array(TeamMember)).map((m) => m.id)).not.toContain(user.id)
    expect(await signedInAs(user.as)).toBeNull()
    expect(await signedInAs({ token })).toBeNull()
    expectError(
      await world.request('POST', '/api/auth/login', {
        json: { auth: user.username, password: user.password },
      }),
      401,
    )
    const events = expectBody(
      await world.request('GET', '/api/events', { as: admin.as }),
      200,
      z.array(Event),
    )
    expect(events).toContainEqual(
      expect.objectContaining({
        object_type: 'user',
        object_id: user.id,
        project_id: null,
        description: `User ${user.username} deleted`,
        username: admin.username,
      }),
    )
  })

  it('lets a user delete their own account', async () => {
    const user = await world.newUser()
    expectNoContent(await world.request('DELETE', `/api/users/${user.id}`, { as: user.as }))
    expect(await signedInAs(user.as)).toBeNull()
    expectError(await world.request('GET', `/api/users/${user.id}`, { as: admin.as }), 404)
  })

  it('records user changes as events without a project, visible to every user', async () => {
    const user = await world.createUser()
    const events = expectBody(
      await world.request('GET', '/api/events/last', { as: bob.as }),
      200,
      z.array(Event),
    )
    expect(events).toContainEqual({
      user_id: admin.id,
      project_id: null,
      integration_id: null,
      object_id: user.id,
      object_type: 'user',
      description: `User ${user.username} created`,
      created: expect.stringMatching(ISO_TIME),
      object_name: '',
      project_name: null,
      username: admin.username,
    })
  })
})
