import { Project, Template, TaskWithTemplate } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectBody, expectNoContent } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

const Templates = z.array(Template)
const Tasks = z.array(TaskWithTemplate)
const Projects = z.array(Project)

/*
 * The template list, task history, task output and project list are answered again from what
 * the server kept while nothing was written. These read them, change what they show through
 * the API and through running tasks, and read them again at once: every answer must already
 * show the change.
 */
describe.each(dialects())('reused answers on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject
  let admin: Person

  const get = (path: string, as = admin.as) => world.request('GET', path, { as })
  const base = () => `/api/project/${tp.p.projectId}`
  const templateNames = async () =>
    expectBody(await get(`${base()}/templates`), 200, Templates).map((t) => t.name)

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    repo = gitFixture()
    await activateScriptApps(world)
    admin = await world.admin()
    tp = await TaskProject.create(world, repo.path)
  })

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('shows a template as soon as it is created, renamed or deleted', async () => {
    const before = await templateNames()
    expect(await templateNames()).toEqual(before)
    const id = await tp.template('ok.sh', { name: 'reuse-created' })
    expect(await templateNames()).toContain('reuse-created')
    const template = expectBody(await get(`${base()}/templates/${id}`), 200, Template)
    expectNoContent(
      await world.request('PUT', `${base()}/templates/${id}`, {
        as: admin.as,
        json: { ...template, name: 'reuse-renamed' },
      }),
    )
    const renamed = await templateNames()
    expect(renamed).toContain('reuse-renamed')
    expect(renamed).not.toContain('reuse-created')
    expectNoContent(await world.request('DELETE', `${base()}/templates/${id}`, { as: admin.as }))
    expect(await templateNames()).toEqual(before)
  })

  it('follows a task through the history, its template list and its output', async () => {
    const template = await tp.template('many.sh')
    const history = async () => expectBody(await get(`${base()}/tasks/last`), 200, Tasks)
    const empty = await history()
    const task = await tp.run(template)
    // Read while the task runs, so that answers are kept and must then be thrown away.
    const seen = new Set<string>()
    for (;;) {
      const latest = (await history()).find((t) => t.id === task.id)
      expect(latest, 'the new task is in the history at once').toBeDefined()
      seen.add(latest!.status)
      await tp.output(task.id)
      if (latest!.status === 'success') break
      expect(['waiting', 'starting', 'running']).toContain(latest!.status)
    }
    expect(seen.has('success')).toBe(true)
    const lines = await tp.lines(task.id)
    expect(lines.filter((l) => /^line \d+$/.test(l))).toHaveLength(10000)
    expect(lines).toContain('line 10000')
    expect((await history()).length).toBe(empty.length + 1)
    const lastOfTemplate = expectBody(
      await get(`${base()}/templates/${template}/tasks/last`),
      200,
      Tasks,
    )
    expect(lastOfTemplate.map((t) => [t.id, t.status])).toEqual([[task.id, 'success']])
    const count = z.object({ count: z.number() })
    const counted = expectBody(await get(`${base()}/tasks/${task.id}/output/count`), 200, count)
    expect(counted.count).toBe(lines.length)
  })

  it("keeps each caller's answers apart and checks access on every request", async () => {
    const member = await world.newUser()
    const own = await world.newProject(member)
    const projectIds = async (as: Person['as']) =>
      expectBody(await get('/api/projects', as), 200, Projects).map((p) => p.id)

    expect(await projectIds(member.as)).toEqual([own.id])
    expect(await projectIds(admin.as)).toContain(tp.p.projectId)
    expect((await get(`${base()}/templates`, member.as)).status).toBe(404)

    await world.addMember(tp.p.projectId, member.id, 'task_runner')
    expect((await projectIds(member.as)).sort()).toEqual([own.id, tp.p.projectId].sort())
    expect(await templateNames()).toEqual(
      expectBody(await get(`${base()}/templates`, member.as), 200, Templates).map((t) => t.name),
    )

    expectNoContent(await world.request('DELETE', `${base()}/users/${member.id}`, { as: admin.as }))
    expect((await get(`${base()}/templates`, member.as)).status).toBe(404)
    expect(await projectIds(member.as)).toEqual([own.id])
  })
})
