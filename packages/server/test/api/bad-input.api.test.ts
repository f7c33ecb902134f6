import { Event, Project, TeamMember, User } from '@flagman/contract'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { errorOf, expectBody, type HttpOptions } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const LONG = 'x'.repeat(256)
const SQL = "'; DROP TABLE project; --"
const SCRIPT = '<script>alert(1)</script>'

interface Fixture {
  admin: Person
  owner: Person
  /** A project owned by `owner`, with `member` as a guest. */
  project: Project
  member: Person
  /** Another project, whose only member is `stranger`. */
  other: Project
  stranger: Person
  /** A template of `project`, and one of `other`. */
  template: number
  otherTemplate: number
}

/** What a bad request must leave untouched, read as the admin. */
type Probe = 'projects' | 'users' | 'team' | 'project' | 'tokens' | 'schedules'

interface BadCase {
  name: string
  method: string
  path: (fx: Fixture) => string
  /** Sent JSON-encoded. */
  json?: (fx: Fixture) => unknown
  /** Sent as is with a JSON Content-Type. */
  raw?: string
  /** Who sends it; the admin by default. */
  as?: (fx: Fixture) => Person
  status: number
  /** Part of the error text that tells the person what to fix. */
  error?: RegExp
  probe: Probe
}

const project = (fx: Fixture) => `/api/project/${fx.project.id}`
const Item = z.object({ id: z.number(), name: z.string() }).catchall(z.unknown())
const user = {
  username: 'valid',
  name: 'Valid',
  email: 'valid@example.test',
  password: 'valid-password',
}

const CASES: BadCase[] = [
  // The body itself.
  ...[
    ['malformed JSON', '{"name": "half'],
    ['a JSON array', '["name"]'],
    ['a JSON string', '"name"'],
    ['a JSON number', '42'],
    ['JSON null', 'null'],
    ['trailing garbage', '{"name":"a"} x'],
  ].map(([name, raw]): BadCase => ({
    name: `project create with ${name}`,
    method: 'POST',
    path: () => '/api/projects',
    raw,
    status: 400,
    probe: 'projects',
  })),
  {
    name: 'project create without a body',
    method: 'POST',
    path: () => '/api/projects',
    status: 400,
    error: /JSON object/,
    probe: 'projects',
  },
  // Project fields.
  ...(
    [
      [{}, /Project name is required/],
      [{ name: null }, /Project name/],
      [{ name: 5 }, /Project name must be a string/],
      [{ name: '' }, /Project name can not be empty/],
      [{ name: '   ' }, /Project name can not be empty/],
      [{ name: LONG }, /at most 255/],
      [{ name: 'a', alert: 'yes' }, /alert/],
      [{ name: 'a', alert_chat: LONG }, /alert_chat/],
      [{ name: 'a', alert_chat: 7 }, /alert_chat/],
      [{ name: 'a', max_parallel_tasks: -1 }, /max_parallel_tasks/],
      [{ name: 'a', max_parallel_tasks: 2.5 }, /max_parallel_tasks/],
      [{ name: 'a', max_parallel_tasks: '4' }, /max_parallel_tasks/],
      [{ name: 'a', max_parallel_tasks: 1e12 }, /max_parallel_tasks/],
      [{ name: 'a', type: 'gold' }, /type/],
      [{ name: 'a\u0000b' }, /NUL/],
      [{ name: 'a', demo: 'yes' }, /demo/],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `project create #${i + 1} with ${JSON.stringify(json).slice(0, 60)}`,
    method: 'POST',
    path: () => '/api/projects',
    json: () => json,
    status: 400,
    error,
    probe: 'projects',
  })),
  ...(
    [
      [{ name: LONG }, /at most 255/],
      [{ name: 'a', max_parallel_tasks: -3 }, /max_parallel_tasks/],
      [{ id: 'one', name: 'a' }, /id/],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `project update #${i + 1} with ${JSON.stringify(json).slice(0, 60)}`,
    method: 'PUT',
    path: project,
    json: () => json,
    as: (fx) => fx.owner,
    status: 400,
    error,
    probe: 'project',
  })),
  {
    name: 'project update naming another project in the body',
    method: 'PUT',
    path: project,
    json: (fx) => ({ id: fx.other.id, name: 'Moved' }),
    as: (fx) => fx.owner,
    status: 400,
    error: /Project ID in body and URL must be the same/,
    probe: 'project',
  },
  {
    name: 'project update with malformed JSON',
    method: 'PUT',
    path: project,
    raw: '{"name":',
    as: (fx) => fx.owner,
    status: 400,
    error: /Malformed JSON/,
    probe: 'project',
  },
  // Ids in the path.
  ...[
    ['an unknown project', '/api/project/987654', 404],
    ['project id zero', '/api/project/0', 404],
    ['a project id that is not a number', '/api/project/abc', 400],
    ['a negative project id', '/api/project/-1', 400],
    ['a project id beyond any id', '/api/project/99999999999', 400],
    ['a project id just beyond 32 bits', '/api/project/2147483648', 400],
    ['an unknown user', '/api/users/987654', 404],
    ['a user id with letters', '/api/users/12abc', 400],
    ['a user id with a malformed %-escape', '/api/users/%E0%A4%A', 400],
  ].map(([name, path, status]): BadCase => ({
    name: `GET of ${name}`,
    method: 'GET',
    path: () => String(path),
    status: Number(status),
    probe: 'projects',
  })),
  {
    name: 'update of an unknown user',
    method: 'PUT',
    path: () => '/api/users/987654',
    json: () => user,
    status: 404,
    probe: 'users',
  },
  {
    name: 'delete of an unknown user',
    method: 'DELETE',
    path: () => '/api/users/987654',
    status: 404,
    probe: 'users',
  },
  {
    name: 'password of an unknown user',
    method: 'POST',
    path: () => '/api/users/987654/password',
    json: () => ({ password: 'x' }),
    status: 404,
    probe: 'users',
  },
  {
    name: 'delete of an unknown project',
    method: 'DELETE',
    path: () => '/api/project/987654',
    status: 404,
    probe: 'projects',
  },
  // Users.
  ...(
    [
      [{ name: 'N', email: 'n@example.test', password: 'p' }, /username is required/],
      [{ username: 'u1', email: 'n@example.test', password: 'p' }, /name is required/],
      [{ username: 'u1', name: 'N', password: 'p' }, /email is required/],
      [{ ...user, username: 12 }, /username must be a string/],
      [{ ...user, username: 'two words' }, /spaces/],
      [{ ...user, username: LONG }, /at most 255/],
      [{ ...user, name: LONG }, /at most 255/],
      [{ ...user, email: 'not-an-email' }, /valid email/],
      [{ ...user, email: `${LONG}@example.test` }, /at most 255/],
      [{ ...user, password: 1234 }, /password/],
      [{ ...user, password: '' }, /password/],
      [{ ...user, password: 'p'.repeat(1025) }, /password/],
      [{ username: 'nopass', name: 'N', email: 'nopass@example.test' }, /password is required/],
      [{ ...user, admin: 'true' }, /admin/],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `user create #${i + 1} with ${JSON.stringify(json).slice(0, 60)}`,
    method: 'POST',
    path: () => '/api/users',
    json: () => json,
    status: 400,
    error,
    probe: 'users',
  })),
  {
    name: 'user create with a username taken in another case',
    method: 'POST',
    path: () => '/api/users',
    json: (fx) => ({ ...user, username: fx.owner.username.toUpperCase() }),
    status: 400,
    error: /username already exists/,
    probe: 'users',
  },
  {
    name: 'user create with an email taken in another case',
    method: 'POST',
    path: () => '/api/users',
    json: (fx) => ({ ...user, email: fx.owner.email.toUpperCase() }),
    status: 400,
    error: /email already exists/,
    probe: 'users',
  },
  {
    name: 'user update without the required fields',
    method: 'PUT',
    path: (fx) => `/api/users/${fx.member.id}`,
    json: () => ({ name: 'Only a name' }),
    status: 400,
    error: /username is required/,
    probe: 'users',
  },
  {
    name: 'password change without a password',
    method: 'POST',
    path: (fx) => `/api/users/${fx.member.id}/password`,
    json: () => ({}),
    status: 400,
    error: /password is required/,
    probe: 'users',
  },
  {
    name: 'password change with a number',
    method: 'POST',
    path: (fx) => `/api/users/${fx.member.id}/password`,
    json: () => ({ password: 123456 }),
    status: 400,
    error: /password must be a string/,
    probe: 'users',
  },
  // Sign-in.
  ...(
    [
      [{}, /auth/],
      [{ auth: 'admin' }, /password is required/],
      [{ auth: 42, password: 'x' }, /auth/],
      [{ auth: LONG, password: 'x' }, /at most 255/],
      [{ auth: 'admin\u0000', password: 'x' }, /NUL/],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `sign-in #${i + 1} with ${JSON.stringify(json).slice(0, 60)}`,
    method: 'POST',
    path: () => '/api/auth/login',
    json: () => json,
    status: 400,
    error,
    probe: 'users',
  })),
  // Team.
  ...(
    [
      [{ role: 'guest' }, /user_id is required/],
      [{ user_id: '2', role: 'guest' }, /user_id must be a number/],
      [{ user_id: 1.5, role: 'guest' }, /user_id/],
      [{ user_id: -4, role: 'guest' }, /user_id/],
      [{ user_id: 99999999999, role: 'guest' }, /user_id/],
      [{ user_id: 1 }, /role/],
      [{ user_id: 1, role: 'admin' }, /role must be one of/],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `team add #${i + 1} with ${JSON.stringify(json)}`,
    method: 'POST',
    path: (fx) => `${project(fx)}/users`,
    json: () => json,
    as: (fx) => fx.owner,
    status: 400,
    error,
    probe: 'team',
  })),
  {
    name: 'team add of an unknown user',
    method: 'POST',
    path: (fx) => `${project(fx)}/users`,
    json: () => ({ user_id: 987654, role: 'guest' }),
    as: (fx) => fx.owner,
    status: 409,
    probe: 'team',
  },
  {
    name: 'team add naming another project in the body',
    method: 'POST',
    path: (fx) => `${project(fx)}/users`,
    json: (fx) => ({ user_id: fx.stranger.id, role: 'guest', project_id: fx.other.id }),
    as: (fx) => fx.owner,
    status: 400,
    error: /Project ID in body and URL must be the same/,
    probe: 'team',
  },
  {
    name: 'role change with an unknown role',
    method: 'PUT',
    path: (fx) => `${project(fx)}/users/${fx.member.id}`,
    json: () => ({ role: 'superuser' }),
    as: (fx) => fx.owner,
    status: 400,
    error: /role must be one of/,
    probe: 'team',
  },
  {
    name: 'role change without a role',
    method: 'PUT',
    path: (fx) => `${project(fx)}/users/${fx.member.id}`,
    json: () => ({}),
    as: (fx) => fx.owner,
    status: 400,
    error: /role/,
    probe: 'team',
  },
  {
    name: 'role change of a member of another project',
    method: 'PUT',
    path: (fx) => `${project(fx)}/users/${fx.stranger.id}`,
    json: () => ({ role: 'manager' }),
    as: (fx) => fx.owner,
    status: 404,
    probe: 'team',
  },
  {
    name: 'removal of a member of another project',
    method: 'DELETE',
    path: (fx) => `${project(fx)}/users/${fx.stranger.id}`,
    as: (fx) => fx.owner,
    status: 404,
    probe: 'team',
  },
  {
    name: 'reading a member of another project',
    method: 'GET',
    path: (fx) => `${project(fx)}/users/${fx.stranger.id}`,
    as: (fx) => fx.owner,
    status: 404,
    probe: 'team',
  },
  {
    name: 'reading another project',
    method: 'GET',
    path: (fx) => `/api/project/${fx.other.id}`,
    as: (fx) => fx.owner,
    status: 404,
    probe: 'team',
  },
  {
    name: 'team list sorted by an unknown column',
    method: 'GET',
    path: (fx) => `${project(fx)}/users?sort=password`,
    as: (fx) => fx.owner,
    status: 400,
    error: /invalid sort column/,
    probe: 'team',
  },
  // Schedules.
  {
    name: 'schedule create without a body',
    method: 'POST',
    path: (fx) => `${project(fx)}/schedules`,
    as: (fx) => fx.owner,
    status: 400,
    error: /JSON object/,
    probe: 'schedules',
  },
  {
    name: 'schedule create with malformed JSON',
    method: 'POST',
    path: (fx) => `${project(fx)}/schedules`,
    raw: '{"name": "nightly",',
    as: (fx) => fx.owner,
    status: 400,
    probe: 'schedules',
  },
  ...(
    [
      [{}, 400, /schedule name is required/],
      [{ cron_format: SQL }, 400, /^Cron: /],
      [{ cron_format: SCRIPT }, 400, /^Cron: /],
      [{ cron_format: '* * * * * *' }, 400, /^Cron: /],
      [{ cron_format: '0 '.repeat(200) + '*' }, 400, /at most 255/],
      [{ cron_format: ['* * * * *'] }, 400, /cron_format must be a string/],
      [{ template_id: '1' }, 400, /template_id must be a number/],
      [{ template_id: 99999999999 }, 400, /template_id must be at most/],
      [{ repository_id: -1 }, 400, /repository_id/],
      [{ active: 1 }, 400, /active must be true or false/],
      [{ name: 'a\u0000b' }, 400, /NUL/],
      [{ template_id: 'other' }, 404, /Template not found/],
    ] as const
  ).map(([fields, status, error], i): BadCase => ({
    name: `schedule create #${i + 1} with ${JSON.stringify(fields).slice(0, 60)}`,
    method: 'POST',
    path: (fx) => `${project(fx)}/schedules`,
    json: (fx) => {
      if (Object.keys(fields).length === 0) return fields
      const body: Record<string, unknown> = {
        name: 'nightly',
        template_id: fx.template,
        cron_format: '0 0 1 1 *',
        ...fields,
      }
      if (body.template_id === 'other') body.template_id = fx.otherTemplate
      return body
    },
    as: (fx) => fx.owner,
    status,
    error,
    probe: 'schedules',
  })),
  ...(
    [
      [{}, /cron_format is required/],
      [{ cron_format: 5 }, /cron_format must be a string/],
      [{ cron_format: SQL }, /^Cron: /],
    ] as const
  ).map(([json, error], i): BadCase => ({
    name: `cron check #${i + 1} with ${JSON.stringify(json)}`,
    method: 'POST',
    path: (fx) => `${project(fx)}/schedules/validate`,
    json: () => json,
    as: (fx) => fx.owner,
    status: 400,
    error,
    probe: 'schedules',
  })),
  {
    name: 'schedule toggle with text',
    method: 'PUT',
    path: (fx) => `${project(fx)}/schedules/1/active`,
    json: () => ({ active: 'true' }),
    as: (fx) => fx.owner,
    status: 400,
    error: /active must be true or false/,
    probe: 'schedules',
  },
  ...[
    ['a schedule id with letters', '/schedules/12abc', 400],
    ['an unknown schedule', '/schedules/987654', 404],
  ].map(([name, path, status]): BadCase => ({
    name: `GET of ${name}`,
    method: 'GET',
    path: (fx) => `${project(fx)}${String(path)}`,
    as: (fx) => fx.owner,
    status: Number(status),
    probe: 'schedules',
  })),
  // Tokens.
  {
    name: 'expiring a token named by an over-long id',
    method: 'DELETE',
    path: () => `/api/user/tokens/${'a'.repeat(70)}`,
    status: 400,
    probe: 'tokens',
  },
  {
    name: 'expiring a token named by an id far too long for an address',
    method: 'DELETE',
    path: () => `/api/user/tokens/${'a'.repeat(150)}`,
    status: 414,
    error: /too long/,
    probe: 'tokens',
  },
  {
    name: 'expiring a token whose id holds a NUL',
    method: 'DELETE',
    path: () => '/api/user/tokens/ab%00cd',
    status: 400,
    error: /NUL/,
    probe: 'tokens',
  },
]

describe('the bad-input table', () => {
  it('has unique case names', () => {
    const names = CASES.map((c) => c.name)
    expect(new Set(names).size).toBe(names.length)
  })
})

describe.each(dialects())('bad input on %s', (dialect) => {
  let server: TestServer
  let world: World
  let fx: Fixture

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    const [admin, owner, member, stranger] = await Promise.all([
      world.admin(),
      world.newUser(),
      world.newUser(),
      world.newUser(),
    ])
    const main = await world.newProject(owner)
    await world.addMember(main.id, member.id, 'guest')
    const other = await world.newProject(stranger)
    fx = {
      admin,
      owner,
      member,
      stranger,
      project: main,
      other,
      template: await newTemplate(main.id),
      otherTemplate: await newTemplate(other.id),
    }
    await world.token(admin)
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A script template of the project, made by the admin (who may use any app). */
  async function newTemplate(projectId: number): Promise<number> {
    const as = (await world.admin()).as
    const base = `/api/project/${projectId}`
    const keys = expectBody(await world.request('GET', `${base}/keys`, { as }), 200, z.array(Item))
    const repository = expectBody(
      await world.request('POST', `${base}/repositories`, {
        as,
        json: {
          name: 'repo',
          project_id: projectId,
          git_url: 'https://example.test/repo.git',
          git_branch: 'main',
          ssh_key_id: keys.find((k) => k.name === 'None')?.id,
        },
      }),
      201,
      Item,
    )
    const template = await world.request('POST', `${base}/templates`, {
      as,
      json: {
        name: 'tpl',
        project_id: projectId,
        app: 'bash',
        playbook: 'run.sh',
        repository_id: repository.id,
      },
    })
    return expectBody(template, 201, Item).id
  }

  async function read(probe: Probe): Promise<unknown> {
    const as = fx.admin.as
    const get = (path: string) => world.request('GET', path, { as })
    switch (probe) {
      case 'projects':
        return expectBody(await get('/api/projects'), 200, z.array(Project))
      case 'users':
        return expectBody(await get('/api/users'), 200, z.array(User))
      case 'team':
        return expectBody(await get(`${project(fx)}/users`), 200, z.array(TeamMember))
      case 'project':
        return expectBody(await get(project(fx)), 200, Project)
      case 'tokens':
        return (await get('/api/user/tokens')).body
      case 'schedules':
        return expectBody(await get(`${project(fx)}/schedules`), 200, z.array(Item))
    }
  }

  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, bad) => {
    const before = await read(bad.probe)
    const options: HttpOptions = { as: (bad.as?.(fx) ?? fx.admin).as }
    if (bad.json) options.json = bad.json(fx)
    if (bad.raw !== undefined) {
      options.raw = bad.raw
      options.headers = { 'Content-Type': 'application/json' }
    }
    const result = await world.request(bad.method, bad.path(fx), options)
    expect(result.status, result.text).toBe(bad.status)
    const error = errorOf(result)
    if (bad.error) expect(error).toMatch(bad.error)
    expect(await read(bad.probe)).toEqual(before)
  })

  it('ignores fields it does not declare, keeping what it does', async () => {
    const as = fx.admin.as
    const made = await world.request('POST', '/api/projects', {
      as,
      json: { name: 'tolerant', colour: 'red', nested: { deep: [1, 2] } },
    })
    const created = expectBody(made, 201, Project)
    expect(created).toMatchObject({ name: 'tolerant', alert: false, max_parallel_tasks: 0 })
    expect(made.text).not.toMatch(/colour|nested|red/)

    const renamed = await world.request('PUT', `/api/project/${created.id}`, {
      as,
      json: { name: 'tolerant renamed', surprise: 1 },
    })
    expect(renamed.status, renamed.text).toBe(204)
    const reread = await world.request('GET', `/api/project/${created.id}`, { as })
    expect(expectBody(reread, 200, Project)).toEqual({ ...created, name: 'tolerant renamed' })

    // A role is not a field of a user: the new user is no administrator.
    const username = unique('tolerant')
    const person = await world.request('POST', '/api/users', {
      as,
      json: { ...user, username, email: `${username}@example.test`, role: 'admin' },
    })
    const newcomer = expectBody(person, 201, User)
    expect(newcomer.admin).toBe(false)
    const read = await world.request('GET', `/api/users/${newcomer.id}`, { as })
    expect(expectBody(read, 200, User).admin).toBe(false)

    const added = await world.request('POST', `${project(fx)}/users`, {
      as: fx.owner.as,
      json: { user_id: newcomer.id, role: 'guest', extra: true },
    })
    expect(added.status, added.text).toBe(204)
    const team = expectBody(
      await world.request('GET', `${project(fx)}/users`, { as }),
      200,
      z.array(TeamMember),
    )
    expect(team.find((m) => m.id === newcomer.id)?.role).toBe('guest')

    const schedule = await world.request('POST', `${project(fx)}/schedules`, {
      as: fx.owner.as,
      json: { name: 'tolerant', template_id: fx.template, cron_format: '0 0 1 1 *', surprise: 1 },
    })
    const stored = expectBody(schedule, 201, Item)
    expect(stored).toMatchObject({ name: 'tolerant', template_id: fx.template, active: true })
    expect(stored).not.toHaveProperty('surprise')
    const fetched = await world.request('GET', `${project(fx)}/schedules/${stored.id}`, { as })
    expect(fetched.body).toEqual(stored)
  })

  it('never answered with a server error, and the server still works', async () => {
    const ping = await world.request('GET', '/api/ping')
    expect(ping.text).toBe('pong')
    const me = await world.request('GET', '/api/user', { as: fx.admin.as })
    expect(me.status).toBe(200)
  })

  it('answers racing duplicates with one success and conflicts, never a server error', async () => {
    const username = unique('race')
    const creates = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        world.request('POST', '/api/users', {
          as: fx.admin.as,
          json: {
            username: i % 2 ? username : username.toUpperCase(),
            name: 'Racer',
            email: `${username}-${i}@example.test`,
            password: 'racer-password',
          },
        }),
      ),
    )
    const statuses = creates.map((r) => r.status)
    expect(
      statuses.filter((s) => s === 201),
      statuses.join(),
    ).toHaveLength(1)
    for (const result of creates.filter((r) => r.status !== 201)) {
      expect([400, 409]).toContain(result.status)
      errorOf(result)
    }
    const users = expectBody(
      await world.request('GET', '/api/users', { as: fx.admin.as }),
      200,
      z.array(User),
    )
    expect(users.filter((u) => u.username.toLowerCase() === username)).toHaveLength(1)

    const newcomer = users.find((u) => u.username.toLowerCase() === username)
    const adds = await Promise.all(
      Array.from({ length: 6 }, () =>
        world.request('POST', `${project(fx)}/users`, {
          as: fx.owner.as,
          json: { user_id: newcomer?.id, role: 'guest' },
        }),
      ),
    )
    expect(adds.filter((r) => r.status === 204)).toHaveLength(1)
    for (const result of adds.filter((r) => r.status !== 204)) {
      expect(result.status).toBe(409)
      errorOf(result)
    }
    const team = expectBody(
      await world.request('GET', `${project(fx)}/users`, { as: fx.owner.as }),
      200,
      z.array(TeamMember),
    )
    expect(team.filter((m) => m.id === newcomer?.id)).toHaveLength(1)
  })

  it('stores and returns SQL and markup verbatim', async () => {
    const odd = [SQL, SCRIPT, 'Ünïcødé 🚀 名前', `"quotes" \\ back\\slash`, 'tab\tnew\nline']
    for (const name of odd) {
      const created = await world.request('POST', '/api/projects', {
        as: fx.admin.as,
        json: { name, alert_chat: name },
      })
      const made = expectBody(created, 201, Project)
      expect(made).toMatchObject({ name, alert_chat: name })
      const fetched = await world.request('GET', `/api/project/${made.id}`, { as: fx.admin.as })
      expect(expectBody(fetched, 200, Project)).toEqual(made)
      const events = await world.request('GET', `/api/project/${made.id}/events`, {
        as: fx.admin.as,
      })
      expect(expectBody(events, 200, z.array(Event))[0]?.project_name).toBe(name)
    }
    const list = expectBody(
      await world.request('GET', '/api/projects', { as: fx.admin.as }),
      200,
      z.array(Project),
    )
    expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(odd))

    const username = unique('odd')
    const person = await world.request('POST', '/api/users', {
      as: fx.admin.as,
      json: { username, name: SCRIPT, email: `${username}@example.test`, password: SQL },
    })
    const created = expectBody(person, 201, User)
    expect(created.name).toBe(SCRIPT)
    expect(person.text).toContain(JSON.stringify(SCRIPT).slice(1, -1))
    // The SQL-looking password is just a password.
    const signIn = await world.request('POST', '/api/auth/login', {
      json: { auth: username, password: SQL },
    })
    expect(signIn.status).toBe(204)
    await world.addMember(fx.project.id, created.id, 'guest')
    const team = expectBody(
      await world.request('GET', `${project(fx)}/users`, { as: fx.owner.as }),
      200,
      z.array(TeamMember),
    )
    expect(team.find((m) => m.id === created.id)?.name).toBe(SCRIPT)
    // Every table is still there.
    expect((await world.request('GET', '/api/projects', { as: fx.admin.as })).status).toBe(200)
  })

  it('accepts names of exactly 255 characters, counting characters not bytes', async () => {
    for (const name of ['n'.repeat(255), 'é'.repeat(255), '名'.repeat(255)]) {
      const created = await world.request('POST', '/api/projects', {
        as: fx.admin.as,
        json: { name },
      })
      expect(expectBody(created, 201, Project).name).toBe(name)
    }
  })
})
