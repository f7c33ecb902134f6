import { Event, View } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  expectRefused,
  insertTemplate,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('views on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let cast: Cast

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    cast = await castFor(world, project.id)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  async function rows(): Promise<string> {
    return projectRows(db, 'view', p.projectId)
  }

  /** A project of its own, so the list holds exactly the views a test made. */
  async function freshProject(): Promise<ProjectResources> {
    const project = await world.newProject()
    return new ProjectResources(world.request.bind(world), admin.as, project.id)
  }

  it('creates, reads, lists, updates and deletes a view', async () => {
    const title = unique('view')
    const created = await p.view(`  ${title} `, 3)
    expect(created).toEqual({ id: expect.any(Number), project_id: p.projectId, title, position: 3 })
    expect(await p.get(`/views/${created.id}`, View)).toEqual(created)
    expect(await p.list('/views', View)).toContainEqual(created)

    const changed = { ...created, title: unique('renamed'), position: -2 }
    expectNoContent(await p.request('PUT', `/views/${created.id}`, changed))
    expect(await p.get(`/views/${created.id}`, View)).toEqual(changed)

    expectNoContent(await p.request('DELETE', `/views/${created.id}`))
    expectError(await p.request('GET', `/views/${created.id}`), 404, 'View not found')
    expect((await p.list('/views', View)).map((v) => v.id)).not.toContain(created.id)
    const events = (await p.list('/events', Event)).map((e) => e.description)
    expect(events).toEqual(
      expect.arrayContaining([
        `View ${title} created`,
        `View ${changed.title} updated`,
        `View ${changed.title} deleted`,
      ]),
    )
  })

  it('lists views by position, then by id, and has no other sort', async () => {
    const q = await freshProject()
    const c = await q.view('c', 0)
    const a = await q.view('a', 5)
    const b = await q.view('b', -1)
    const d = await q.view('d', 0)
    expect((await q.list('/views', View)).map((v) => v.id)).toEqual([b.id, c.id, d.id, a.id])
    // A view without a position goes to position 0.
    const e = expectBody(
      await q.request('POST', '/views', { title: 'e', project_id: q.projectId }),
      201,
      View,
    )
    expect(e.position).toBe(0)
  })

  it('requires a title and ids that match the URL', async () => {
    const view = await p.view(unique('v'))
    const before = await rows()
    const other = await world.newProject()
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [{ title: '' }, 'title can not be empty'],
      [{ title: '   ' }, 'title can not be empty'],
      [{ title: undefined }, 'title is required'],
      [{ title: 't'.repeat(256) }, 'title must be at most 255 characters'],
      [{ position: 1.5 }, 'position must be an integer'],
      [{ position: '1' }, 'position must be an integer'],
      [{ project_id: other.id }, 'Project ID in body and URL must be the same'],
    ]
    for (const [fields, message] of cases) {
      const body = { title: unique('t'), position: 0, project_id: p.projectId, ...fields }
      expectError(await p.request('POST', '/views', body), 400, message)
      expectError(
        await p.request('PUT', `/views/${view.id}`, { ...body, id: view.id }),
        400,
        message,
      )
    }
    expectError(
      await p.request('PUT', `/views/${view.id}`, { ...view, id: view.id + 1 }),
      400,
      'View ID in URL and in body must be the same',
    )
    expect(await rows()).toBe(before)
  })

  it('saves many positions at once', async () => {
    const q = await freshProject()
    const a = await q.view('a', 0)
    const b = await q.view('b', 1)
    const c = await q.view('c', 2)
    expectNoContent(
      await q.request('POST', '/views/positions', { [a.id]: 2, [b.id]: 0, [c.id]: 1 }),
    )
    expect(await q.list('/views', View)).toEqual([
      { ...b, position: 0 },
      { ...c, position: 1 },
      { ...a, position: 2 },
    ])
    // Views left out keep their position; an empty map changes nothing.
    expectNoContent(await q.request('POST', '/views/positions', { [a.id]: -1 }))
    expectNoContent(await q.request('POST', '/views/positions', {}))
    expect((await q.list('/views', View)).map((v) => [v.id, v.position])).toEqual([
      [a.id, -1],
      [b.id, 0],
      [c.id, 1],
    ])
  })

  it('refuses positions naming views of another project, changing nothing', async () => {
    const q = await freshProject()
    const mine = await q.view('mine', 0)
    const foreign = await p.view(unique('foreign'), 7)
    const before = [
      await projectRows(db, 'view', q.projectId),
      await projectRows(db, 'view', p.projectId),
    ]
    for (const id of [foreign.id, 999_999_999]) {
      // The view of this project listed first is not moved either.
      expectError(
        await q.request('POST', '/views/positions', { [mine.id]: 9, [id]: 0 }),
        404,
        'View not found',
      )
    }
    const refused: Array<[unknown, RegExp]> = [
      [{ abc: 1 }, /view ids must be numbers/],
      [{ '-1': 1 }, /view ids must be numbers/],
      [{ '0': 1 }, /view ids must be numbers/],
      [{ [mine.id]: 2 ** 40 }, /position must be at most/],
      [{ '99999999999': 1 }, /view ids must be numbers/],
      [{ [mine.id]: 'first' }, /position must be an integer/],
      [{ [mine.id]: 1.5 }, /position must be an integer/],
      [[mine.id], /./],
    ]
    for (const [json, message] of refused) {
      expectError(await q.request('POST', '/views/positions', json), 400, message)
    }
    expect([
      await projectRows(db, 'view', q.projectId),
      await projectRows(db, 'view', p.projectId),
    ]).toEqual(before)
  })

  it("moves a deleted view's templates back to All", async () => {
    const view = await p.view(unique('tab'))
    const kept = await p.view(unique('kept'))
    const inView = await insertTemplate(db, p.projectId, { name: unique('t'), view_id: view.id })
    const inOther = await insertTemplate(db, p.projectId, { name: unique('t'), view_id: kept.id })
    expectNoContent(await p.request('DELETE', `/views/${view.id}`))
    const templates = await db.kysely
      .selectFrom('template')
      .select(['id', 'view_id'])
      .where('id', 'in', [inView, inOther])
      .orderBy('id')
      .execute()
    expect(templates).toEqual([
      { id: inView, view_id: null },
      { id: inOther, view_id: kept.id },
    ])
  })

  it('answers 404 for a view of another project and changes nothing', async () => {
    const q = await freshProject()
    const foreign = await q.view('foreign')
    const before = await projectRows(db, 'view', q.projectId)
    const update = { ...foreign, project_id: p.projectId, title: 'taken' }
    for (const [method, path, json] of [
      ['GET', `/views/${foreign.id}`, undefined],
      ['PUT', `/views/${foreign.id}`, update],
      ['DELETE', `/views/${foreign.id}`, undefined],
    ] as const) {
      expectError(await p.request(method, path, json), 404, 'View not found')
    }
    expect(await projectRows(db, 'view', q.projectId)).toBe(before)
  })

  it('lets every member read views but only managers and owners change them', async () => {
    const view = await p.view(unique('perm'))
    const before = await rows()
    const reads = ['/views', `/views/${view.id}`]
    const writes = [
      ['POST', '/views', { title: 'x', position: 0, project_id: p.projectId }],
      ['PUT', `/views/${view.id}`, { ...view, title: 'x' }],
      ['DELETE', `/views/${view.id}`, undefined],
      ['POST', '/views/positions', { [view.id]: 4 }],
    ] as const
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        expect((await world.request('GET', `${p.base}${path}`, { as })).status).toBe(200)
      }
      for (const [method, path, json] of writes) {
        expectError(await world.request(method, `${p.base}${path}`, { as, json }), 403)
      }
    }
    const outsider = cast.outsider.as
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`, { as: outsider }), 404)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, `${p.base}${path}`, { as: outsider, json }), 404)
    }
    expect(await rows()).toBe(before)
    const managed = await world.request('POST', `${p.base}/views/positions`, {
      as: cast.manager.as,
      json: { [view.id]: 4 },
    })
    expectNoContent(managed)
    const guestList = await world.request('GET', `${p.base}/views`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(View))).toContainEqual({ ...view, position: 4 })
  })

  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const view = await p.view(unique('bad'))
    const before = [await rows(), await projectRows(db, 'event', p.projectId)]
    const valid = { title: unique('valid'), position: 1, project_id: p.projectId }
    const update = { ...view, title: unique('never') }
    const mistyped: Array<Record<string, unknown>> = [
      { position: null },
      { position: 2_000_000 },
      { position: -2_000_000 },
      { position: 1e300 },
      { title: ['x'] },
      { title: null },
    ]
    type Case = [string, string, string, HttpOptions]
    const cases: Case[] = [
      ...malformedBodies(valid, 'title').map(([l, o]): Case => [`POST ${l}`, 'POST', '/views', o]),
      ...malformedBodies(update, 'title').map(([l, o]): Case => [
        `PUT ${l}`,
        'PUT',
        `/views/${view.id}`,
        o,
      ]),
      ...mistyped.map((f): Case => [
        `POST ${JSON.stringify(f)}`,
        'POST',
        '/views',
        { json: { ...valid, ...f } },
      ]),
      ...mistyped.map((f): Case => [
        `PUT ${JSON.stringify(f)}`,
        'PUT',
        `/views/${view.id}`,
        { json: { ...update, ...f } },
      ]),
      [
        'positions malformed',
        'POST',
        '/views/positions',
        { raw: '{"1":', headers: { 'Content-Type': 'application/json' } },
      ],
      ['positions as a number', 'POST', '/views/positions', { json: 3 }],
      ['positions without a body', 'POST', '/views/positions', {}],
    ]
    for (const path of ['abc', '-1', '0', '99999999999']) {
      cases.push([`GET ${path}`, 'GET', `/views/${path}`, {}])
      cases.push([`PUT ${path}`, 'PUT', `/views/${path}`, { json: update }])
      cases.push([`DELETE ${path}`, 'DELETE', `/views/${path}`, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, `${p.base}${path}`, { as: admin.as, ...options })
      expectRefused(result, label)
    }
    expect([await rows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
  })
})
