import { Task, TaskWithTemplate, ActiveTask, StatsRow } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

describe.each(dialects())('tasks on %s', (dialect) => {
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

  it('runs a bash script to success with its output, arguments and metadata', async () => {
    const tpl = await tp.template('ok.sh', { allow_override_args_in_task: true })
    const created = await tp.run(tpl, { arguments: '["one","two"]', message: 'hi' })
    expect(created.status).toBe('waiting')
    expect(created.secret).toBe('{}')
    const done = await tp.waitFor(created.id)
    expect(done.status).toBe('success')
    expect(done.start).not.toBeNull()
    expect(done.end).not.toBeNull()
    expect(done.commit_hash).toMatch(/^[0-9a-f]{40}$/)
    const lines = await tp.lines(created.id)
    expect(lines[0]).toBe(`Task ${created.id} added to queue`)
    expect(lines).toContain('hello from bash')
    expect(lines.some((l) => l.startsWith('args:') && l.endsWith('one two'))).toBe(true)

    const raw = await tp.p.request('GET', `/tasks/${created.id}/raw_output`)
    expect(raw.status).toBe(200)
    expect(raw.headers.get('content-type')).toMatch(/^text\/plain/)
    expect(raw.headers.get('content-disposition')).toContain(`task-${created.id}.log`)
    expect(raw.text).toBe(lines.map((line) => `${line}\n`).join(''))
    expectError(await tp.p.request('GET', '/tasks/999999/raw_output'), 404)

    const meta = await tp.run(await tp.template('meta.sh'))
    expect((await tp.waitFor(meta.id)).status).toBe('success')
    expect(await tp.lines(meta.id)).toContain(`id=${meta.id} project=${tp.p.projectId} target=`)
  })

  it('ends a failing bash or python script in error, and runs python', async () => {
    const bash = await tp.run(await tp.template('fail.sh'))
    const py = await tp.run(await tp.template('hello.py'))
    const pyFail = await tp.run(await tp.template('fail.py'))
    expect((await tp.waitFor(bash.id)).status).toBe('error')
    expect(await tp.lines(bash.id)).toContain('about to fail')
    expect((await tp.waitFor(py.id)).status).toBe('success')
    expect(await tp.lines(py.id)).toContain('hello from python')
    expect((await tp.waitFor(pyFail.id)).status).toBe('error')
    expect(await tp.lines(pyFail.id)).toContain('python failed')
  })

  it('stores 10,000 lines in order', async () => {
    const task = await tp.run(await tp.template('many.sh'))
    expect((await tp.waitFor(task.id)).status).toBe('success')
    const lines = (await tp.lines(task.id)).filter((l) => l.startsWith('line '))
    expect(lines).toHaveLength(10_000)
    expect(lines.every((l, i) => l === `line ${i + 1}`)).toBe(true)
  })

  it('refuses bad input and stores nothing', async () => {
    const plain = await tp.template('ok.sh')
    const survey = await tp.template('ok.sh', {
      survey_vars: [
        { name: 'count', title: 'Count', type: 'int', required: true },
        {
          name: 'color',
          title: 'Color',
          type: 'enum',
          values: [
            { name: 'Red', value: 'red' },
            { name: 'Blue', value: 'blue' },
          ],
        },
      ],
    })
    const before = (await tp.p.list('/tasks', TaskWithTemplate)).length
    expectError(await tp.post({ template_id: 999_999 }), 404)
    expectError(
      await tp.post({ template_id: plain, arguments: '["x"]' }),
      400,
      /does not allow overriding arguments/,
    )
    expectError(await tp.post({ template_id: survey }), 400, /count is required/)
    expectError(
      await tp.post({ template_id: survey, environment: '{"count":"12a"}' }),
      400,
      /count must be an integer/,
    )
    expectError(
      await tp.post({ template_id: survey, environment: '{"count":"3","color":"green"}' }),
      400,
      /color must be one of/,
    )
    expectError(await tp.post({ template_id: plain, environment: '[1]' }), 400, /JSON object/)
    expectError(await tp.post({ template_id: plain, secret: 'nope' }), 400, /JSON object/)
    expectError(await tp.post({ template_id: plain, inventory_id: 999_999 }), 404)
    for (const playbook of ['../outside.sh', '/etc/passwd', 'scripts/../../outside.sh']) {
      expectError(
        await tp.post({ template_id: plain, playbook }),
        400,
        /playbook must be a path inside the repository/,
      )
    }
    expectError(
      await tp.post({ template_id: plain, commit_hash: 'main; rm -rf /' }),
      400,
      /commit_hash must be a hexadecimal commit hash/,
    )
    expect((await tp.p.list('/tasks', TaskWithTemplate)).length).toBe(before)

    const ok = await tp.run(survey, { environment: '{"count":"3","color":"blue"}' })
    expect((await tp.waitFor(ok.id)).status).toBe('success')
  })

  it('stops a sleeping script and force-stops one that ignores SIGTERM', async () => {
    const sleeping = await tp.run(await tp.template('sleep.sh'))
    await tp.waitForLine(sleeping.id, /^started$/)
    expectNoContent(await tp.p.request('POST', `/tasks/${sleeping.id}/stop`, { force: false }))
    const stopped = await tp.waitFor(sleeping.id)
    expect(stopped.status).toBe('stopped')
    expect(await tp.lines(sleeping.id)).not.toContain('not reached')

    const trapping = await tp.run(await tp.template('trap.sh'))
    await tp.waitForLine(trapping.id, /^started$/)
    expectNoContent(await tp.p.request('POST', `/tasks/${trapping.id}/stop`, { force: true }))
    expect((await tp.waitFor(trapping.id, ['stopped'], 3_000)).status).toBe('stopped')

    // A finished task never changes.
    expectNoContent(await tp.p.request('POST', `/tasks/${stopped.id}/stop`, { force: true }))
    const ok = await tp.run(await tp.template('ok.sh'))
    expect((await tp.waitFor(ok.id)).status).toBe('success')
    expectNoContent(await tp.p.request('POST', `/tasks/${ok.id}/stop`, { force: true }))
    expect((await tp.task(ok.id)).status).toBe('success')
    expectError(await tp.p.request('POST', `/tasks/${ok.id}/confirm`), 400)
    expectError(await tp.p.request('POST', `/tasks/${ok.id}/reject`), 400)
  })

  it('runs one task of a template at a time and honours the project limit', async () => {
    const tpl = await tp.template('short.sh')
    const a = await tp.run(tpl)
    const b = await tp.run(tpl)
    await tp.waitFor(a.id, ['running', 'success'])
    // While a runs, b waits (same template).
    const bWhileA = await tp.task(b.id)
    const aNow = await tp.task(a.id)
    if (aNow.status === 'running') expect(bWhileA.status).toBe('waiting')
    const aDone = await tp.waitFor(a.id)
    const bDone = await tp.waitFor(b.id)
    expect(Date.parse(bDone.start ?? '')).toBeGreaterThanOrEqual(Date.parse(aDone.end ?? ''))

    const limited = await TaskProject.create(world, repo.path)
    const project = await limited.p.get('', z.object({ name: z.string() }).catchall(z.unknown()))
    expectNoContent(
      await limited.p.request('PUT', '', {
        ...project,
        id: limited.p.projectId,
        max_parallel_tasks: 1,
      }),
    )
    const t1 = await limited.run(await limited.template('short.sh'))
    const t2 = await limited.run(await limited.template('short.sh'))
    const d1 = await limited.waitFor(t1.id)
    const d2 = await limited.waitFor(t2.id)
    expect(d1.status).toBe('success')
    expect(d2.status).toBe('success')
    expect(Date.parse(d2.start ?? '')).toBeGreaterThanOrEqual(Date.parse(d1.end ?? ''))

    // Raising the limit lets a waiting task start at once, without waiting for the first.
    const long = await limited.run(await limited.template('sleep.sh'))
    await limited.waitForLine(long.id, /^started$/)
    const queued = await limited.run(await limited.template('short.sh'))
    expect((await limited.task(queued.id)).status).toBe('waiting')
    expectNoContent(
      await limited.p.request('PUT', '', {
        ...project,
        id: limited.p.projectId,
        max_parallel_tasks: 0,
      }),
    )
    expect((await limited.waitFor(queued.id)).status).toBe('success')
    expect((await limited.task(long.id)).status).toBe('running')
    expectNoContent(await limited.p.request('POST', `/tasks/${long.id}/stop`, { force: true }))
    expect((await limited.waitFor(long.id)).status).toBe('stopped')
  })

  it('computes build versions, checks deploy build tasks and lists template tasks', async () => {
    const build = await tp.template('meta.sh', { type: 'build', start_version: '1.0.0' })
    const v1 = await tp.run(build)
    const v2 = await tp.run(build)
    expect(v1.version).toBe('1.0.0')
    expect(v2.version).toBe('1.0.1')
    expect((await tp.waitFor(v2.id)).status).toBe('success')
    expect(await tp.lines(v2.id)).toContain(`id=${v2.id} project=${tp.p.projectId} target=1.0.1`)
    const deploy = await tp.template('ok.sh', { type: 'deploy', build_template_id: build })
    expectError(await tp.post({ template_id: deploy }), 400, /build_task_id/)
    const fail = await tp.run(await tp.template('fail.sh'))
    await tp.waitFor(fail.id)
    expectError(await tp.post({ template_id: deploy, build_task_id: fail.id }), 400)
    await tp.waitFor(v1.id)
    const dep = await tp.run(deploy, { build_task_id: v2.id })
    expect((await tp.waitFor(dep.id)).status).toBe('success')

    const list = await tp.p.list(`/templates/${build}/tasks`, TaskWithTemplate)
    expect(list.map((t) => t.id)).toEqual([v2.id, v1.id])
    expect(list[0]?.tpl_type).toBe('build')
    const last = await tp.p.list(`/templates/${build}/tasks/last?limit=1`, TaskWithTemplate)
    expect(last.map((t) => t.id)).toEqual([v2.id])
    const success = await tp.p.list(`/templates/${build}/tasks?status=success`, TaskWithTemplate)
    expect(success).toHaveLength(2)
    const stats = await tp.p.list(`/templates/${build}/stats`, StatsRow)
    expect(stats[0]?.count_by_status.success).toBe(2)
    expectError(
      await tp.p.request('GET', `/templates/${build}/stats?start=2024-13-01`),
      400,
      /Invalid start date/,
    )
    const deployList = await tp.p.list(`/templates/${deploy}/tasks`, TaskWithTemplate)
    expect(deployList[0]?.build_task?.id).toBe(v2.id)
  })

  it('lists active tasks for admins and deletes finished tasks', async () => {
    const admin = await world.admin()
    const sleeping = await tp.run(await tp.template('sleep.sh'))
    await tp.waitForLine(sleeping.id, /^started$/)
    const active = expectBody(
      await world.request('GET', '/api/tasks', { as: admin.as }),
      200,
      z.array(ActiveTask),
    )
    expect(active.find((t) => t.task_id === sleeping.id)).toMatchObject({
      location: 'running',
      username: 'admin',
    })
    expectError(await tp.p.request('DELETE', `/tasks/${sleeping.id}`), 400)
    expectNoContent(await world.request('DELETE', `/api/tasks/${sleeping.id}`, { as: admin.as }))
    expect((await tp.waitFor(sleeping.id)).status).toBe('stopped')
    expectNoContent(await tp.p.request('DELETE', `/tasks/${sleeping.id}`))
    expectError(await tp.p.request('GET', `/tasks/${sleeping.id}`), 404)
    const last = await tp.p.list('/tasks/last?limit=2', Task)
    expect(last.length).toBeLessThanOrEqual(2)
  })
})

describe.each(dialects())('task queue limits and restarts on %s', (dialect) => {
  let repo: ReturnType<typeof gitFixture>
  beforeAll(() => {
    repo = gitFixture()
  })
  afterAll(() => repo?.dispose())

  it('starts one task at a time with FLAGMAN_MAX_PARALLEL_TASKS=1', async () => {
    const server = await startTestServer(dialect, { FLAGMAN_MAX_PARALLEL_TASKS: '1' })
    try {
      const world = new World(server)
      await activateScriptApps(world)
      const tp = await TaskProject.create(world, repo.path)
      const t1 = await tp.run(await tp.template('short.sh'))
      const t2 = await tp.run(await tp.template('short.sh'))
      await tp.waitFor(t1.id, ['running', 'success'])
      const d1 = await tp.waitFor(t1.id)
      const d2 = await tp.waitFor(t2.id)
      expect([d1.status, d2.status]).toEqual(['success', 'success'])
      expect(Date.parse(d2.start ?? '')).toBeGreaterThanOrEqual(Date.parse(d1.end ?? ''))
    } finally {
      await server.stop()
    }
  }, 60_000)

  it('stops running tasks on SIGTERM and queues waiting ones again on the next start', async () => {
    const first = await startTestServer(dialect, { FLAGMAN_MAX_PARALLEL_TASKS: '1' })
    let second: TestServer | undefined
    try {
      const world = new World(first)
      await activateScriptApps(world)
      const tp = await TaskProject.create(world, repo.path)
      const running = await tp.run(await tp.template('sleep.sh'))
      const waiting = await tp.run(await tp.template('ok.sh'))
      await tp.waitForLine(running.id, /^started$/)
      expect((await tp.task(waiting.id)).status).toBe('waiting')
      await first.kill?.('SIGTERM')
      second = await startTestServer(dialect, {}, { reuse: first })
      const world2 = new World(second)
      const p2 = new ProjectResources(
        (method, path, options) => world2.request(method, path, options),
        tp.p.as,
        tp.p.projectId,
      )
      const tp2 = new TaskProject(world2, p2, tp.repositoryId)
      expect((await tp2.task(running.id)).status).toBe('stopped')
      expect((await tp2.waitFor(waiting.id)).status).toBe('success')
      expect(await tp2.lines(waiting.id)).toContain('hello from bash')
    } finally {
      if (second) await second.stop()
      else await first.stop()
    }
  }, 90_000)

  it('marks a task interrupted by a crash as error on the next start', async () => {
    const first = await startTestServer(dialect)
    let second: TestServer | undefined
    try {
      const world = new World(first)
      await activateScriptApps(world)
      const tp = await TaskProject.create(world, repo.path)
      const task = await tp.run(await tp.template('sleep.sh'))
      await tp.waitForLine(task.id, /^started$/)
      await first.kill?.('SIGKILL')
      second = await startTestServer(dialect, {}, { reuse: first })
      const world2 = new World(second)
      const p2 = new ProjectResources(
        (method, path, options) => world2.request(method, path, options),
        tp.p.as,
        tp.p.projectId,
      )
      const tp2 = new TaskProject(world2, p2, tp.repositoryId)
      const done = await tp2.waitFor(task.id, ['error'], 10_000)
      expect(done.end).not.toBeNull()
      expect(await tp2.lines(task.id)).toContain('Task was interrupted by a server restart')
    } finally {
      if (second) await second.stop()
      else await first.stop()
    }
  }, 90_000)
})
