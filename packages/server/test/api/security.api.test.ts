import { CurrentUser, Project } from '@flagman/contract'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type Credentials } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const FOREIGN_ORIGIN = 'https://evil.example'

describe.each(dialects())('browser protections on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function projectNames(): Promise<string[]> {
    const result = await world.request('GET', '/api/projects', { as: admin.as })
    return expectBody(result, 200, z.array(Project)).map((p) => p.name)
  }

  async function userId(as: Credentials): Promise<number | null> {
    const result = await world.request('GET', '/api/user', { as })
    if (result.status === 401) return null
    return expectBody(result, 200, CurrentUser).id
  }

  it('marks every API answer as not cacheable, errors included', async () => {
    const answers = [
      await world.request('GET', '/api/ping'),
      await world.request('GET', '/api/user', { as: admin.as }),
      await world.request('GET', '/api/user'),
      await world.request('GET', '/api/no-such-thing'),
      await world.request('POST', '/api/auth/login', { json: {} }),
    ]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 401, 404, 400])
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store')
  })

  it('refuses a state-changing request from another site and writes nothing', async () => {
    const before = await projectNames()
    const name = unique('cross-site')
    for (const origin of [FOREIGN_ORIGIN, 'null', `${server.url}.evil.example`]) {
      const result = await world.request('POST', '/api/projects', {
        as: admin.as,
        json: { name },
        headers: { Origin: origin },
      })
      expectError(result, 403, /cross-site/i)
    }
    // Signing in from another site's page is refused as well (login CSRF).
    const login = await world.request('POST', '/api/auth/login', {
      json: { auth: admin.username, password: admin.password },
      headers: { Origin: FOREIGN_ORIGIN },
    })
    expectError(login, 403)
    expect(login.headers.get('set-cookie')).toBeNull()
    expect(await projectNames()).toEqual(before)

    // The console's own origin is fine.
    const sameSite = await world.request('POST', '/api/projects', {
      as: admin.as,
      json: { name },
      headers: { Origin: server.url },
    })
    expect(expectBody(sameSite, 201, Project).name).toBe(name)
    expect(await projectNames()).toContain(name)
  })

  it('refuses a deletion from another site', async () => {
    const project = await world.newProject()
    const result = await world.request('DELETE', `/api/project/${project.id}`, {
      as: admin.as,
      headers: { Origin: FOREIGN_ORIGIN },
    })
    expectError(result, 403)
    expect(await projectNames()).toContain(project.name)
  })

  it('refuses cookie-authenticated writes that are not labelled JSON and writes nothing', async () => {
    const before = await projectNames()
    const name = unique('form')
    const bodies: Array<{ raw: string; headers: Record<string, string> }> = [
      { raw: JSON.stringify({ name }), headers: { 'Content-Type': 'text/plain' } },
      { raw: JSON.stringify({ name }), headers: { 'Content-Type': 'text/plain;charset=UTF-8' } },
      {
        raw: `name=${name}`,
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      },
      {
        raw: `--b\r\n\r\n${name}\r\n--b--`,
        headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
      },
    ]
    for (const body of bodies) {
      const result = await world.request('POST', '/api/projects', { as: admin.as, ...body })
      expectError(result, 415, 'Content-Type must be application/json')
    }
    // A body without any Content-Type (a page can send a bare Blob) is refused too.
    const unlabelled = await fetch(`${server.url}/api/projects`, {
      method: 'POST',
      headers: { Cookie: admin.as.cookie ?? '' },
      body: new Blob([JSON.stringify({ name })]),
    })
    expect(unlabelled.status).toBe(415)
    expect(await projectNames()).toEqual(before)
  })

  it("accepts a cookie-authenticated write labelled as a form from the server's own pages", async () => {
    // The compatible console posts a restored backup's text as it was read from the file.
    const name = unique('own-page')
    const result = await world.request('POST', '/api/projects', {
      as: admin.as,
      raw: JSON.stringify({ name }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
    })
    expect(expectBody(result, 201, Project).name).toBe(name)
  })

  it('accepts the same requests from a script with a bearer token and no Origin', async () => {
    const token = await world.token(admin)
    const plain = unique('script')
    const form = unique('curl')
    const text = await world.request('POST', '/api/projects', {
      as: { token },
      raw: JSON.stringify({ name: plain }),
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(expectBody(text, 201, Project).name).toBe(plain)
    // What `curl -d '{…}'` sends: JSON labelled as a form.
    const curl = await world.request('POST', '/api/projects', {
      as: { token },
      raw: JSON.stringify({ name: form }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expect(expectBody(curl, 201, Project).name).toBe(form)
    expect(await projectNames()).toEqual(expect.arrayContaining([plain, form]))
    // A cookie sent along does not change that: the bearer token is what authenticates.
    const both = await world.request('POST', '/api/projects', {
      as: { token, cookie: admin.as.cookie },
      raw: JSON.stringify({ name: unique('both') }),
      headers: { 'Content-Type': 'text/plain' },
    })
    expect(both.status).toBe(201)
  })

  it('accepts JSON from a client without Origin and without a cookie (sign-in by curl)', async () => {
    const result = await world.request('POST', '/api/auth/login', {
      raw: JSON.stringify({ auth: admin.username, password: admin.password }),
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    })
    expectNoContent(result)
  })

  it("ends the user's other sessions when they change their password, keeping the current one", async () => {
    const user = await world.newUser()
    const other = await world.signIn(user.username, user.password)
    const token = await world.token(user)
    expect(await userId(other)).toBe(user.id)

    const newPassword = `${user.password}-new`
    expectNoContent(
      await world.request('POST', `/api/users/${user.id}/password`, {
        as: user.as,
        json: { password: newPassword, current_password: user.password },
      }),
    )
    expect(await userId(user.as)).toBe(user.id)
    expect(await userId(other)).toBeNull()
    // API tokens were issued under the old password: they end too.
    expect(await userId({ token })).toBeNull()
    expectError(
      await world.request('POST', '/api/auth/login', {
        json: { auth: user.username, password: user.password },
      }),
      401,
    )
    expect(await userId(await world.signIn(user.username, newPassword))).toBe(user.id)
  })

  it("ends all of a user's sessions when an admin sets their password, and not the admin's", async () => {
    const user = await world.newUser()
    const second = await world.signIn(user.username, user.password)
    expectNoContent(
      await world.request('PUT', `/api/users/${user.id}`, {
        as: admin.as,
        json: {
          username: user.username,
          name: user.name,
          email: user.email,
          password: 'set-by-admin',
        },
      }),
    )
    expect(await userId(user.as)).toBeNull()
    expect(await userId(second)).toBeNull()
    expect(await userId(admin.as)).toBe(admin.id)
    expect(await userId(await world.signIn(user.username, 'set-by-admin'))).toBe(user.id)
  })

  it('answers an unknown API path with a JSON 404, for any method', async () => {
    for (const [method, path] of [
      ['GET', '/api/no-such-thing'],
      ['GET', '/api/project/1/no-such-thing'],
      ['POST', '/api/no-such-thing'],
      ['PATCH', '/api/projects'],
      ['GET', '/api'],
    ] as const) {
      const result = await world.request(method, path, { as: admin.as })
      expectError(result, 404, 'Not Found')
      expect(result.headers.get('content-type')).toMatch(/^application\/json/)
    }
  })

  it('serves the console for other paths without a dot, and 404 for missing files', async () => {
    for (const path of ['/', '/project/1/history', '/auth/login']) {
      const result = await world.request('GET', path)
      expect(result.status, path).toBe(200)
      expect(result.headers.get('content-type')).toMatch(/^text\/html/)
      expect(result.text).toMatch(/<!doctype html>/i)
    }
    const missing = await world.request('GET', '/assets/no-such-file.js')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).not.toMatch(/html/)
  })
})
