import { Event, TaskWithTemplate } from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'

const Tasks = z.array(TaskWithTemplate)
const Events = z.array(Event)
const TASKS = 75
/** Every field of a task in a history list, as the compatible API answers it. */
const TASK_FIELDS = Object.keys(TaskWithTemplate.shape).sort()
const EVENT_FIELDS = Object.keys(Event.shape)
  .filter((k) => k !== 'id')
  .sort()

/** Reads a newest-first list page by page through `before_id`, as a client pages it. */
async function collect<T extends { id?: number }>(
  read: (query: string) => Promise<T[]>,
  limit: number,
): Promise<{ rows: T[]; pages: number }> {
  const rows: T[] = []
  let pages = 0
  let query = `limit=${limit}`
  for (;;) {
    const page = await read(query)
    pages += 1
    expect(page.length).toBeLessThanOrEqual(limit)
    rows.push(...page)
    if (page.length < limit) return { rows, pages }
    query = `limit=${limit}&before_id=${page[page.length - 1]!.id}`
  }
}

describe.each(dialects())('history and activity pages on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let project: { id: number }
  let db: Db
  let templateA: number
  let templateB: number

  const get = (path: string, as = admin.as) => world.request('GET', path, { as })
  const tasks = async (path: string) => expectBody(await get(path), 200, Tasks)
  const events = async (path: string, as = admin.as) => expectBody(await get(path, as), 200, Events)
  const ids = (rows: { id?: number }[]) => rows.map((r) => r.id)

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    project = await world.newProject()
    db = await world.openDb()
    const template = (name: string) =>
      insertReturningId(db, 'template', {
        project_id: project.id,
        name,
        playbook: 'x.sh',
        created: nowIso(),
      })
    templateA = await template('history-a')
    templateB = await template('history-b')
    // Tasks of both templates interleaved, a third of them failed; one event per task.
    for (let i = 0; i < TASKS; i += 1) {
      await db.kysely
        .insertInto('task')
        .values({
          project_id: project.id,
          template_id: i % 2 ? templateB : templateA,
          status: i % 3 === 0 ? 'error' : 'success',
          user_id: admin.id,
          created: nowIso(),
        })
        .execute()
      await db.kysely
        .insertInto('event')
        .values({
          project_id: project.id,
          user_id: admin.id,
          object_type: 'task',
          object_id: i,
          description: `history event ${i}`,
          created: nowIso(),
        })
        .execute()
    }
  }, 120_000)

  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  it('answers the unparameterised lists as before: all fields, newest first, default caps', async () => {
    const all = await tasks(`/api/project/${project.id}/tasks`)
    expect(all).toHaveLength(TASKS)
    expect(Object.keys(all[0]!).sort()).toEqual(TASK_FIELDS)
    expect(ids(all)).toEqual([...ids(all)].sort((a, b) => b! - a!))
    expect(await tasks(`/api/project/${project.id}/tasks/last?limit=10`)).toEqual(all.slice(0, 10))
    const ofA = await tasks(`/api/project/${project.id}/templates/${templateA}/tasks`)
    expect(ofA).toEqual(all.filter((t) => t.template_id === templateA))
    const failedOfA = await tasks(
      `/api/project/${project.id}/templates/${templateA}/tasks?status=error`,
    )
    expect(failedOfA).toEqual(ofA.filter((t) => t.status === 'error'))

    const activity = await events(`/api/project/${project.id}/events`)
    expect(activity.length).toBeGreaterThan(TASKS)
    for (const event of activity) expect(Object.keys(event).sort()).toEqual(EVENT_FIELDS)
    expect(activity[0]!.description).toBe(`history event ${TASKS - 1}`)
  })

  it('pages a project history with no gap and no duplicate', async () => {
    const all = await tasks(`/api/project/${project.id}/tasks`)
    const paged = await collect((q) => tasks(`/api/project/${project.id}/tasks?${q}`), 7)
    expect(paged.pages).toBe(Math.floor(TASKS / 7) + 1)
    expect(paged.rows).toEqual(all)
    // tasks/last takes the cursor too.
    const older = await tasks(
      `/api/project/${project.id}/tasks/last?limit=5&before_id=${all[9]!.id}`,
    )
    expect(older).toEqual(all.slice(10, 15))
  })

  it("pages a template's history, of one status too", async () => {
    const base = `/api/project/${project.id}/templates/${templateA}/tasks`
    const ofA = await tasks(base)
    expect((await collect((q) => tasks(`${base}?${q}`), 4)).rows).toEqual(ofA)
    const failed = await collect((q) => tasks(`${base}?status=error&${q}`), 3)
    expect(failed.rows).toEqual(ofA.filter((t) => t.status === 'error'))
    const last = await tasks(`${base}/last?limit=2&before_id=${ofA[0]!.id}`)
    expect(last).toEqual(ofA.slice(1, 3))
  })

  it("pages a project's activity, each paged event with its id", async () => {
    const all = await events(`/api/project/${project.id}/events`)
    const paged = await collect((q) => events(`/api/project/${project.id}/events?${q}`), 9)
    expect(paged.rows.map(({ id: _id, ...rest }) => rest)).toEqual(all)
    const pagedIds = ids(paged.rows)
    expect(new Set(pagedIds).size).toBe(pagedIds.length)
    expect(pagedIds).toEqual([...pagedIds].sort((a, b) => b! - a!))
    const last = await events(`/api/project/${project.id}/events/last?limit=3`)
    expect(last.map((e) => e.description)).toEqual(all.slice(0, 3).map((e) => e.description))
  })

  it('pages the activity of all projects alike for a member of many and of few', async () => {
    // A member of one project among several reads each project's range and merges them.
    for (let i = 0; i < 3; i += 1) await world.newProject()
    const member = await world.newUser()
    await world.addMember(project.id, member.id, 'task_runner')
    for (const person of [admin, member]) {
      const expected = await db.kysely
        .selectFrom('event')
        .select(['id', 'description'])
        .where((eb) =>
          eb.or([
            eb('project_id', 'is', null),
            eb(
              'project_id',
              'in',
              eb.selectFrom('project_user').select('project_id').where('user_id', '=', person.id),
            ),
          ]),
        )
        .orderBy('id', 'desc')
        .limit(1000)
        .execute()
      const unpaged = await events('/api/events', person.as)
      expect(unpaged.map((e) => e.description)).toEqual(expected.map((e) => e.description))
      const paged = await collect((q) => events(`/api/events?${q}`, person.as), 11)
      expect(ids(paged.rows)).toEqual(ids(expected))
      const last = await events('/api/events/last?limit=4', person.as)
      expect(ids(last)).toEqual(ids(expected).slice(0, 4))
    }
  })

  it('refuses bad paging parameters with a clear 400', async () => {
    const lists = [
      `/api/project/${project.id}/tasks`,
      `/api/project/${project.id}/templates/${templateA}/tasks`,
      `/api/project/${project.id}/events`,
      '/api/events',
    ]
    const badCursor = ['-1', '0', 'abc', '1e3', '1.5', '99999999999', '1%20OR%201=1', "1'--"]
    const badLimit = ['0', '-5', '1001', 'ten', '1;DROP TABLE task', '2.5']
    for (const list of lists) {
      for (const value of badCursor) {
        expectError(await get(`${list}?before_id=${value}`), 400, /before_id/)
      }
      for (const value of badLimit) {
        expectError(await get(`${list}?limit=${value}`), 400, /limit must be a whole number/)
      }
      expectError(await get(`${list}?limit=1&limit=2`), 400, /limit/)
    }
    for (const last of [`/api/project/${project.id}/events/last`, '/api/events/last']) {
      expectError(await get(`${last}?limit=201`), 400, /limit must be a whole number from 1 to 200/)
    }
    expectError(await get(`/api/project/${project.id}/tasks/last?before_id=x`), 400, /before_id/)
  })
})
