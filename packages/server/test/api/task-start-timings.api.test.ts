import { TaskWithTemplate, type Task } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

const PHASES = [
  'queued_ms',
  'building_job_ms',
  'writing_files_ms',
  'preparing_repository_ms',
  'spawning_ms',
] as const

/** The breakdown is whole, non-negative, and its phases fit in the total start time. */
function expectBreakdown(task: Task): void {
  const timings = task.start_timings
  expect(timings, `task ${task.id} has start timings`).toBeTruthy()
  if (!timings) return
  for (const phase of PHASES) {
    const value = timings[phase]
    expect(Number.isInteger(value), `${phase} = ${String(value)}`).toBe(true)
    expect(value).toBeGreaterThanOrEqual(0)
  }
  const sum = PHASES.reduce((total, phase) => total + (timings[phase] ?? 0), 0)
  expect(sum).toBeLessThanOrEqual(timings.total_ms)
  // The app's process ran before the task ended (the total is rounded up to the millisecond).
  expect(task.end).not.toBeNull()
  expect(timings.total_ms).toBeLessThanOrEqual(
    Date.parse(task.end ?? '') - Date.parse(task.created) + 1,
  )
}

describe.each(dialects())('task start timings on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('stores where the start time of a bash task went, each time it runs', async () => {
    const tpl = await tp.template('ok.sh')
    const created = await tp.run(tpl)
    expect(created.start_timings ?? null).toBeNull()
    // The second run finds the repository's commit already known.
    for (const id of [created.id, (await tp.run(tpl)).id]) {
      const done = await tp.waitFor(id)
      expect(done.status).toBe('success')
      expectBreakdown(done)
      expect(done.commit_hash).toMatch(/^[0-9a-f]{40}$/)
      expect(done.commit_message).toBe('files')
    }
  })

  it('lists the breakdown with the tasks of the project', async () => {
    const done = await tp.waitFor((await tp.run(await tp.template('ok.sh'))).id)
    const listed = await tp.p.list('/tasks', TaskWithTemplate)
    const item = listed.find((t) => t.id === done.id)
    expect(item?.start_timings).toEqual(done.start_timings)
  })

  it('has none for a task whose app never started', async () => {
    const task = await tp.run(await tp.template('missing.sh'))
    const done = await tp.waitFor(task.id)
    expect(done.status).toBe('error')
    expect(done.start_timings ?? null).toBeNull()
  })
})
