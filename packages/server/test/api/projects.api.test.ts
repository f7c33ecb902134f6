import {
  Event,
  Project,
  ProjectRoleInfo,
  TeamMember,
  User,
  type ProjectRole,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import {
  expectBody,
  expectError,
  expectNoContent,
  type Credentials,
  type HttpResult,
} from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/

describe.each(dialects())('projects, team and events on %s', (dialect) => {
  let server: TestServer
  let world: World
  let db: Db
  let admin: Person
  /** Non-admin users, one per role, plus one who belongs to no project. */
  let owner: Person
  let manager: Person
  let runner: Person
  let guest: Person
  let outsider: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    db = await world.openDb()
    admin = await world.admin()
    ;[owner, manager, runner, guest, outsider] = await Promise.all([
      world.newUser({ name: 'owner person' }),
      world.newUser({ name: 'manager person' }),
      world.newUser({ name: 'runner person' }),
      world.newUser({ name: 'guest person' }),
      world.newUser({ name: 'outsider person' }),
    ])
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  /** A project owned by `owner` with one member of each other role; the admin is not in it. */
  async function teamProject(name?: string): Promise<Project> {
    const project = await world.newProject(owner, name)
    await world.addMember(project.id, manager.id, 'manager')
    await world.addMember(project.id, runner.id, 'task_runner')
    await world.addMember(project.id, guest.id, 'guest')
    return project
  }

  function get(path: string, as: Credentials): Promise<HttpResult> {
    return world.request('GET', path, { as })
  }

  async function team(projectId: number, query = ''): Promise<TeamMember[]> {
    const result = await get(`/api/project/${projectId}/users${query}`, admin.as)
    return expectBody(result, 200, z.array(TeamMember))
  }

  async function projectIds(as: Credentials): Promise<number[]> {
    return expectBody(await get('/api/projects', as), 200, z.array(Project)).map((p) => p.id)
  }

  async function projectEvents(projectId: number): Promise<Event[]> {
    const result = await get(`/api/project/${projectId}/events/last`, admin.as)
    return expectBody(result, 200, z.array(Event))
  }

  it('creates a project owned by its creator, with key "None" and environment "Empty"', async () => {
    const name = unique('Created')
    const result = await world.request('POST', '/api/projects', {
      as: admin.as,
      json: { name, alert: true, alert_chat: 'chat-1', max_parallel_tasks: 4 },
    })
    const project = expectBody(result, 201, Project)
    expect(result.body).toEqual({
      id: expect.any(Number),
      name,
      created: expect.stringMatching(ISO_TIME),
      alert: true,
      alert_chat: 'chat-1',
      max_parallel_tasks: 4,
      type: '',
      task_retention_days: null,
      max_tasks_per_template: null,
    })
    expect(expectBody(await get(`/api/project/${project.id}`, admin.as), 200, Project)).toEqual(
      project,
    )
    expect(await team(project.id)).toEqual([
      { id: admin.id, username: admin.username, name: admin.name, role: 'owner' },
    ])
    const role = await get(`/api/project/${project.id}/role`, admin.as)
    expect(role.body).toEqual({ role: 'owner', permissions: 15 })

    const keys = await db.kysely
      .selectFrom('access_key')
      .select(['name', 'type'])
      .where('project_id', '=', project.id)
      .execute()
    expect(keys).toEqual([{ name: 'None', type: 'none' }])
    const environments = await db.kysely
      .selectFrom('environment')
      .select(['name', 'json'])
      .where('project_id', '=', project.id)
      .execute()
    expect(environments).toEqual([{ name: 'Empty', json: '{}' }])

    expect(await projectEvents(project.id)).toEqual([
      {
        user_id: admin.id,
        project_id: project.id,
        integration_id: null,
        object_id: project.id,
        object_type: 'project',
        description: 'Project created',
        created: expect.stringMatching(ISO_TIME),
        object_name: '',
        project_name: name,
        username: admin.username,
      },
    ])
  })

  it('does not let a non-admin create a project by default (401), and writes nothing', async () => {
    const before = await projectIds(admin.as)
    const result = await world.request('POST', '/api/projects', {
      as: owner.as,
      json: { name: unique('not-allowed') },
    })
    expectError(result, 401, /administrators/)
    expect(await projectIds(admin.as)).toEqual(before)
  })

  it('lists only the projects a user belongs to, sorted by name; admins see all', async () => {
    const b = await teamProject(unique('b-list'))
    const a = await world.newProject(owner, unique('a-list'))
    const c = await world.newProject(undefined, unique('c-list'))
    const mine = expectBody(await get('/api/projects', owner.as), 200, z.array(Project))
    const ids = mine.map((p) => p.id)
    expect(ids).toEqual(expect.arrayContaining([a.id, b.id]))
    expect(ids).not.toContain(c.id)
    expect(mine.map((p) => p.name)).toEqual([...mine.map((p) => p.name)].sort())
    expect(await projectIds(guest.as)).toContain(b.id)
    expect(await projectIds(guest.as)).not.toContain(a.id)
    expect(await projectIds(outsider.as)).toEqual([])
    expect(await projectIds(admin.as)).toEqual(expect.arrayContaining([a.id, b.id, c.id]))
  })

  it('updates name, alert, alert_chat and max_parallel_tasks', async () => {
    const project = await teamProject()
    const path = `/api/project/${project.id}`
    const name = unique('Renamed')
    expectNoContent(
      await world.request('PUT', path, {
        as: owner.as,
        json: { id: project.id, name, alert: true, alert_chat: 'ops', max_parallel_tasks: 7 },
      }),
    )
    const updated = expectBody(await get(path, owner.as), 200, Project)
    expect(updated).toEqual({
      ...project,
      name,
      alert: true,
      alert_chat: 'ops',
      max_parallel_tasks: 7,
    })
    // A fetched project sent back unchanged is accepted, `type` included.
    expectNoContent(await world.request('PUT', path, { as: owner.as, json: updated }))
    // Fields left out keep their values.
    expectNoContent(await world.request('PUT', path, { as: owner.as, json: { name: 'Only name' } }))
    expect(expectBody(await get(path, owner.as), 200, Project)).toEqual({
      ...updated,
      name: 'Only name',
    })
    expect((await projectEvents(project.id))[0]).toMatchObject({
      description: 'Project updated',
      object_type: 'project',
      username: owner.username,
      project_name: 'Only name',
    })
  })

  it('refuses an update whose body names another project, changing nothing', async () => {
    const project = await teamProject()
    const other = await teamProject()
    const result = await world.request('PUT', `/api/project/${project.id}`, {
      as: owner.as,
      json: { id: other.id, name: 'Hijack' },
    })
    expectError(result, 400, 'Project ID in body and URL must be the same')
    expect(expectBody(await get(`/api/project/${project.id}`, owner.as), 200, Project)).toEqual(
      project,
    )
    expect(expectBody(await get(`/api/project/${other.id}`, owner.as), 200, Project)).toEqual(other)
  })

  it('refuses max_parallel_tasks that is negative or not a whole number', async () => {
    const project = await teamProject()
    const before = await projectIds(admin.as)
    for (const value of [-1, 1.5, '3', true]) {
      const create = await world.request('POST', '/api/projects', {
        as: admin.as,
        json: { name: unique('bad-max'), max_parallel_tasks: value },
      })
      expectError(create, 400, /max_parallel_tasks/)
      const update = await world.request('PUT', `/api/project/${project.id}`, {
        as: owner.as,
        json: { name: project.name, max_parallel_tasks: value },
      })
      expectError(update, 400, /max_parallel_tasks/)
    }
    expect(await projectIds(admin.as)).toEqual(before)
    expect(
      expectBody(await get(`/api/project/${project.id}`, owner.as), 200, Project)
        .max_parallel_tasks,
    ).toBe(0)
  })

  it('deletes a project with everything in it', async () => {
    const project = await teamProject()
    const name = project.name
    expectNoContent(await world.request('DELETE', `/api/project/${project.id}`, { as: owner.as }))
    expectError(await get(`/api/project/${project.id}`, admin.as), 404)
    expectError(await get(`/api/project/${project.id}`, owner.as), 404)
    expect(await projectIds(guest.as)).not.toContain(project.id)
    for (const table of ['project_user', 'access_key', 'environment', 'event'] as const) {
      const rows = await db.kysely
        .selectFrom(table)
        .select('id')
        .where('project_id', '=', project.id)
        .execute()
      expect(rows, table).toEqual([])
    }
    const events = expectBody(await get('/api/events', owner.as), 200, z.array(Event))
    expect(events).toContainEqual(
      expect.objectContaining({
        project_id: null,
        object_type: 'project',
        object_id: project.id,
        description: `Project ${name} deleted`,
        username: owner.username,
      }),
    )
  })

  it('tells each caller their role and permission bits', async () => {
    const project = await teamProject()
    const expected: Array<[Person, ProjectRoleInfo]> = [
      [owner, { role: 'owner', permissions: 15 }],
      [manager, { role: 'manager', permissions: 5 }],
      [runner, { role: 'task_runner', permissions: 1 }],
      [guest, { role: 'guest', permissions: 0 }],
      [admin, { role: '', permissions: 0 }],
    ]
    for (const [person, info] of expected) {
      const result = await get(`/api/project/${project.id}/role`, person.as)
      expect(expectBody(result, 200, ProjectRoleInfo), person.username).toEqual(info)
    }
    expectError(await get(`/api/project/${project.id}/role`, outsider.as), 404)
  })

  it('lists the team sorted by the requested column and order', async () => {
    // Each column orders the three newcomers differently; the owner ("owner person",
    // username "user…", email "user…@") sorts last by name and email, first by username.
    const project = await world.newProject(owner)
    const newcomers: Array<[string, string, string, ProjectRole]> = [
      ['c-sort', 'x', 'm1', 'guest'],
      ['b-sort', 'y', 'm3', 'manager'],
      ['a-sort', 'z', 'm2', 'task_runner'],
    ]
    for (const [name, username, email, role] of newcomers) {
      const user = await world.createUser({
        name: unique(name),
        username: unique(username),
        email: `${unique(email)}@example.test`,
      })
      await world.addMember(project.id, user.id, role)
    }
    const roles = async (query: string) => (await team(project.id, query)).map((m) => m.role)

    expect(await roles('')).toEqual(['task_runner', 'manager', 'guest', 'owner'])
    expect(await roles('?sort=name&order=asc')).toEqual(await roles(''))
    expect(await roles('?sort=name&order=desc')).toEqual([
      'owner',
      'guest',
      'manager',
      'task_runner',
    ])
    expect(await roles('?sort=username')).toEqual(['owner', 'guest', 'manager', 'task_runner'])
    expect(await roles('?sort=email')).toEqual(['guest', 'task_runner', 'manager', 'owner'])
    expect(await roles('?sort=role')).toEqual(['guest', 'manager', 'owner', 'task_runner'])
    expect(await roles('?sort=role&order=desc')).toEqual([
      'task_runner',
      'owner',
      'manager',
      'guest',
    ])
    // Anything but "desc" is ascending.
    expect(await roles('?sort=role&order=sideways')).toEqual(await roles('?sort=role'))

    for (const query of ['?sort=password', '?sort=', '?sort=id']) {
      expectError(
        await get(`/api/project/${project.id}/users${query}`, admin.as),
        400,
        /invalid sort column/,
      )
    }
  })

  it('adds members, and refuses unknown users and existing members with 409', async () => {
    const project = await teamProject()
    const newcomer = await world.createUser()
    const path = `/api/project/${project.id}/users`
    expectNoContent(
      await world.request('POST', path, {
        as: owner.as,
        json: { user_id: newcomer.id, role: 'task_runner' },
      }),
    )
    const before = await team(project.id)
    expect(before).toContainEqual({
      id: newcomer.id,
      username: newcomer.username,
      name: newcomer.name,
      role: 'task_runner',
    })
    const member = await get(`${path}/${newcomer.id}`, guest.as)
    expect(expectBody(member, 200, User)).toMatchObject({ id: newcomer.id, email: newcomer.email })

    const again = await world.request('POST', path, {
      as: owner.as,
      json: { user_id: newcomer.id, role: 'owner' },
    })
    expectError(again, 409, /already a member/)
    const unknown = await world.request('POST', path, {
      as: owner.as,
      json: { user_id: 987654, role: 'guest' },
    })
    expectError(unknown, 409, /no user/)
    const badRole = await world.request('POST', path, {
      as: owner.as,
      json: { user_id: outsider.id, role: 'admin' },
    })
    expectError(badRole, 400, /role/)
    expect(await team(project.id)).toEqual(before)
    expect((await projectEvents(project.id))[0]).toMatchObject({
      object_type: 'user',
      object_id: newcomer.id,
      description: `User ID ${newcomer.id} added to team`,
      username: owner.username,
      project_name: project.name,
    })
  })

  it('changes roles and removes members', async () => {
    const project = await teamProject()
    const path = `/api/project/${project.id}/users/${guest.id}`
    expectNoContent(await world.request('PUT', path, { as: owner.as, json: { role: 'manager' } }))
    expect((await team(project.id)).find((m) => m.id === guest.id)?.role).toBe('manager')
    // Setting the same role again is fine (MySQL reports no changed row).
    expectNoContent(await world.request('PUT', path, { as: owner.as, json: { role: 'manager' } }))
    expectError(await world.request('PUT', path, { as: owner.as, json: { role: 'boss' } }), 400)
    expectError(
      await world.request('PUT', `/api/project/${project.id}/users/${outsider.id}`, {
        as: owner.as,
        json: { role: 'guest' },
      }),
      404,
    )
    expectNoContent(await world.request('DELETE', path, { as: owner.as }))
    expect((await team(project.id)).map((m) => m.id)).not.toContain(guest.id)
    expectError(await get(`/api/project/${project.id}`, guest.as), 404)
    expectError(await world.request('DELETE', path, { as: owner.as }), 404)

    const events = await projectEvents(project.id)
    expect(events.slice(0, 3).map((e) => e.description)).toEqual([
      `User ID ${guest.id} removed from team`,
      `Changed role for User ID ${guest.id}`,
      `Changed role for User ID ${guest.id}`,
    ])
  })

  it('keeps the owner in: no leaving, no own role change, no self-removal (400)', async () => {
    const project = await teamProject()
    const before = await team(project.id)
    expectError(
      await world.request('DELETE', `/api/project/${project.id}/me`, { as: owner.as }),
      400,
      /owner/,
    )
    expectError(
      await world.request('PUT', `/api/project/${project.id}/users/${owner.id}`, {
        as: owner.as,
        json: { role: 'guest' },
      }),
      400,
      /owner/,
    )
    expectError(
      await world.request('DELETE', `/api/project/${project.id}/users/${owner.id}`, {
        as: owner.as,
      }),
      400,
      /owner/,
    )
    expect(await team(project.id)).toEqual(before)
  })

  it('lets other members leave', async () => {
    const project = await teamProject()
    for (const person of [manager, runner, guest]) {
      expectNoContent(
        await world.request('DELETE', `/api/project/${project.id}/me`, { as: person.as }),
      )
      expectError(await get(`/api/project/${project.id}`, person.as), 404)
    }
    expect((await team(project.id)).map((m) => m.id)).toEqual([owner.id])
    expect((await projectEvents(project.id))[0]).toMatchObject({
      description: `User ID ${guest.id} removed from team`,
      username: guest.username,
    })
  })

  it('lets an admin who owns a project leave it, and a non-member admin leave nothing', async () => {
    const project = await world.newProject()
    expectNoContent(
      await world.request('DELETE', `/api/project/${project.id}/me`, { as: admin.as }),
    )
    expect(await team(project.id)).toEqual([])
    expectNoContent(
      await world.request('DELETE', `/api/project/${project.id}/me`, { as: admin.as }),
    )
  })

  it('shows in /api/events only events of the caller’s projects and those of no project', async () => {
    const mine = await teamProject(unique('events-mine'))
    const theirs = await world.newProject(undefined, unique('events-theirs'))
    await world.addMember(theirs.id, outsider.id, 'guest')
    const member = await world.createUser()

    const events = expectBody(await get('/api/events', guest.as), 200, z.array(Event))
    const guestProjects = await projectIds(guest.as)
    expect(events.length).toBeGreaterThan(0)
    for (const event of events) {
      if (event.project_id !== null) expect(guestProjects).toContain(event.project_id)
    }
    expect(events.map((e) => e.project_id)).toContain(mine.id)
    expect(events.map((e) => e.project_id)).not.toContain(theirs.id)
    expect(events).toContainEqual(
      expect.objectContaining({ project_id: null, description: `User ${member.username} created` }),
    )
    // Newest first: the user was created last.
    expect(events[0]).toMatchObject({ description: `User ${member.username} created` })
    expect(
      events.find(
        (e) => e.project_id === mine.id && e.description === `User ID ${guest.id} added to team`,
      ),
    ).toMatchObject({ project_name: mine.name, username: admin.username })

    const last = expectBody(await get('/api/events/last', guest.as), 200, z.array(Event))
    expect(last).toEqual(events.slice(0, 200))
    const all = expectBody(
      await get(`/api/project/${mine.id}/events`, guest.as),
      200,
      z.array(Event),
    )
    expect(all.every((e) => e.project_id === mine.id)).toBe(true)
    expect(all.map((e) => e.description)).toContain('Project created')
    expectError(await get(`/api/project/${theirs.id}/events`, guest.as), 404)
  })
})
