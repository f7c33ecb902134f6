import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  Event,
  ProjectBackup,
  Project,
  Schedule,
  ScheduleWithTemplate,
  Task,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ScheduleClock } from '../../src/modules/schedules/index.js'
import type { ClockTimers } from '../../src/modules/schedules/schedule-clock.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpResult } from '../support/http.js'
import { startInProcessServer, type InProcessServer } from '../support/in-process.js'
import { castFor, ProjectResources, projectRows, type Cast } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

/**
 * A cron expression that never comes due while the tests run (midnight of January 1st, UTC),
 * so only the ticks a test fires itself start tasks.
 */
const NEW_YEAR = '0 0 1 1 *'

const Item = z.object({ id: z.number() }).catchall(z.unknown())

/** Commits a change to a file of the repository and returns the new head. */
function commit(repoPath: string, text: string): string {
  writeFileSync(join(repoPath, 'change.txt'), text)
  const git = (...args: string[]) =>
    execFileSync('git', args, {
      cwd: repoPath,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@example.test',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@example.test',
      },
    })
      .toString()
      .trim()
  git('add', '.')
  git('commit', '-q', '-m', text)
  return git('rev-parse', 'HEAD')
}

/** A time source that stands still until a test moves it, running the timers that come due. */
class TestTimers implements ClockTimers {
  private current: number
  private readonly pending = new Map<number, { at: number; callback: () => void }>()
  private nextHandle = 1

  constructor(start: string) {
    this.current = Date.parse(start)
  }

  now(): number {
    return this.current
  }

  setTimeout(callback: () => void, ms: number): number {
    const handle = this.nextHandle++
    this.pending.set(handle, { at: this.current + ms, callback })
    return handle
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number)
  }

  /** Timers set and not yet run or cleared. */
  get waiting(): number {
    return this.pending.size
  }

  /** Moves the time forward, running every timer due on the way in order of its time. */
  advance(ms: number): void {
    const target = this.current + ms
    for (;;) {
      let first: [number, { at: number; callback: () => void }] | undefined
      for (const entry of this.pending) {
        if (entry[1].at <= target && (!first || entry[1].at < first[1].at)) first = entry
      }
      if (!first) break
      this.pending.delete(first[0])
      this.current = Math.max(this.current, first[1].at)
      first[1].callback()
    }
    this.current = target
  }
}

function head(repoPath: string): string {
  return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoPath }).toString().trim()
}

/** Schedule requests of one project, as the person `tp` acts as. */
class Schedules {
  constructor(readonly tp: TaskProject) {}

  get p(): ProjectResources {
    return this.tp.p
  }

  body(templateId: number, fields: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      name: unique('schedule'),
      template_id: templateId,
      cron_format: NEW_YEAR,
      project_id: this.p.projectId,
      ...fields,
    }
  }

  async create(templateId: number, fields: Record<string, unknown> = {}): Promise<Schedule> {
    const result = await this.p.request('POST', '/schedules', this.body(templateId, fields))
    return expectBody(result, 201, Schedule)
  }

  get(id: number): Promise<Schedule> {
    return this.p.get(`/schedules/${id}`, Schedule)
  }

  list(): Promise<ScheduleWithTemplate[]> {
    return this.p.list('/schedules', ScheduleWithTemplate)
  }

  ofTemplate(templateId: number): Promise<Schedule[]> {
    return this.p.list(`/templates/${templateId}/schedules`, Schedule)
  }

  update(schedule: Schedule, fields: Record<string, unknown> = {}): Promise<HttpResult> {
    return this.p.request('PUT', `/schedules/${schedule.id}`, { ...schedule, ...fields })
  }

  setActive(id: number, active: boolean): Promise<HttpResult> {
    return this.p.request('PUT', `/schedules/${id}/active`, { active })
  }

  validate(cron: unknown): Promise<HttpResult> {
    return this.p.request('POST', '/schedules/validate', { cron_format: cron })
  }

  async events(): Promise<string[]> {
    return (await this.p.list('/events', Event)).map((e) => e.description)
  }
}

describe.each(dialects())('schedules API on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject
  let s: Schedules
  let cast: Cast
  let templateId: number

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
    s = new Schedules(tp)
    cast = await castFor(world, tp.p.projectId)
    templateId = await tp.template('ok.sh')
  }, 60_000)

  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    repo?.dispose()
  })

  const rows = () => projectRows(db, 'schedule', tp.p.projectId)

  it('creates, reads, lists, updates, toggles and deletes a schedule, with events', async () => {
    const name = unique('nightly')
    const created = await s.create(templateId, { name: `  ${name} `, cron_format: ' 0 3 * * * ' })
    expect(created).toEqual({
      id: expect.any(Number),
      project_id: tp.p.projectId,
      template_id: templateId,
      cron_format: '0 3 * * *',
      name,
      active: true,
      repository_id: null,
    })
    expect(await s.get(created.id)).toEqual(created)
    const listed = (await s.list()).find((item) => item.id === created.id)
    const template = await tp.p.get(`/templates/${templateId}`, Item)
    expect(listed).toEqual({ ...created, tpl_name: template.name })

    const changed = { ...created, name: unique('renamed'), cron_format: '@hourly', active: false }
    expectNoContent(await s.update(created, changed))
    expect(await s.get(created.id)).toEqual(changed)

    expectNoContent(await s.setActive(created.id, true))
    expect((await s.get(created.id)).active).toBe(true)
    expectNoContent(await s.setActive(created.id, false))
    expect((await s.get(created.id)).active).toBe(false)

    expectNoContent(await tp.p.request('DELETE', `/schedules/${created.id}`))
    expectError(await tp.p.request('GET', `/schedules/${created.id}`), 404, 'Schedule not found')
    expect((await s.list()).map((item) => item.id)).not.toContain(created.id)

    const events = (await s.events()).filter((e) => e.startsWith(`Schedule ID ${created.id} `))
    // Newest first: delete, two toggles and an update, then the creation.
    expect(events).toEqual([
      `Schedule ID ${created.id} deleted`,
      `Schedule ID ${created.id} updated`,
      `Schedule ID ${created.id} updated`,
      `Schedule ID ${created.id} updated`,
      `Schedule ID ${created.id} created`,
    ])
  })

  it('lists commit checks with their template only, and cron schedules with the project', async () => {
    const template = await tp.template('ok.sh')
    const cron = await s.create(template)
    const check = await s.create(template, { repository_id: tp.repositoryId })
    expect(check.repository_id).toBe(tp.repositoryId)
    expect(await s.ofTemplate(template)).toEqual([check])
    const listed = (await s.list()).map((item) => item.id)
    expect(listed).toContain(cron.id)
    expect(listed).not.toContain(check.id)
    // A commit check is still a schedule of the project.
    expect(await s.get(check.id)).toEqual(check)
    // Clearing the repository turns it into a cron schedule.
    expectNoContent(await s.update(check, { repository_id: null }))
    expect(await s.ofTemplate(template)).toEqual([])
    expect((await s.list()).map((item) => item.id)).toContain(check.id)
    expectError(await tp.p.request('GET', '/templates/999999/schedules'), 404, 'Template not found')
  })

  it('refuses bad schedules with a reason, storing nothing', async () => {
    const schedule = await s.create(templateId)
    const other = await TaskProject.create(world, repo.path)
    const foreignTemplate = await other.template('ok.sh')
    const before = await rows()
    const cases: Array<[Record<string, unknown>, number, string | RegExp]> = [
      [{ name: '' }, 400, 'schedule name can not be empty'],
      [{ name: '   ' }, 400, 'schedule name can not be empty'],
      [{ name: undefined }, 400, 'schedule name is required'],
      [{ name: 'n'.repeat(256) }, 400, 'schedule name must be at most 255 characters'],
      [{ cron_format: 'every day' }, 400, /^Cron: /],
      [{ cron_format: '' }, 400, 'Cron: the expression is empty'],
      [{ cron_format: '61 * * * *' }, 400, /^Cron: .*minute/],
      [{ cron_format: '* * * * * *' }, 400, /^Cron: .*5 parts/],
      [{ cron_format: undefined }, 400, 'cron_format is required'],
      [{ cron_format: 5 }, 400, 'cron_format must be a string'],
      [{ template_id: undefined }, 400, 'template_id is required'],
      [{ template_id: '1' }, 400, 'template_id must be a number'],
      [{ template_id: 0 }, 400, 'template_id must be a positive number'],
      [{ template_id: foreignTemplate }, 404, 'Template not found'],
      [{ template_id: 999999 }, 404, 'Template not found'],
      [{ repository_id: other.repositoryId }, 404, 'Repository not found'],
      [{ active: 'yes' }, 400, 'active must be true or false'],
      [{ colour: 'red' }, 400, 'Unknown field: colour'],
    ]
    for (const [fields, status, message] of cases) {
      const body = s.body(templateId, fields)
      expectError(await tp.p.request('POST', '/schedules', body), status, message)
      expectError(await s.update(schedule, { ...fields }), status, message)
    }
    expectError(
      await tp.p.request('POST', '/schedules', s.body(templateId, { project_id: 999999 })),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await s.update(schedule, { id: schedule.id + 1 }),
      400,
      'schedule id in URL and in body must be the same',
    )
    expectError(
      await s.update(schedule, { project_id: other.p.projectId }),
      400,
      'You can not move schedule to other project',
    )
    expectError(await s.setActive(schedule.id, 'no' as never), 400, 'active must be true or false')
    expectError(await tp.p.request('PUT', '/schedules/999999', { ...schedule, id: 999999 }), 404)
    expectError(await tp.p.request('DELETE', '/schedules/999999'), 404, 'Schedule not found')
    expect(await rows()).toBe(before)

    // Another project's schedule is not found here, whatever the call.
    const foreign = await new Schedules(other).create(foreignTemplate)
    expectError(await tp.p.request('GET', `/schedules/${foreign.id}`), 404, 'Schedule not found')
    expectError(
      await tp.p.request('PUT', `/schedules/${foreign.id}`, { ...foreign, project_id: undefined }),
      404,
      'Schedule not found',
    )
    expectError(await s.setActive(foreign.id, false), 404, 'Schedule not found')
    expectError(await tp.p.request('DELETE', `/schedules/${foreign.id}`), 404)
    expect(await new Schedules(other).get(foreign.id)).toEqual(foreign)
  })

  it('validates a cron expression without saving anything', async () => {
    for (const cron of ['* * * * *', '*/5 * * * *', '0 0 * * 0', '@daily', ' @weekly ']) {
      const valid = await s.validate(cron)
      expect(valid.status, `${cron}: ${valid.text}`).toBe(200)
      expect(valid.text).toBe('')
    }
    const before = await rows()
    expectError(await s.validate('* * *'), 400, /^Cron: /)
    expectError(await s.validate('not a cron'), 400, /^Cron: /)
    expectError(await s.validate(''), 400, 'Cron: the expression is empty')
    expectError(await s.validate(12), 400, 'cron_format must be a string')
    // A whole schedule form may be sent; only the expression counts.
    const form = await tp.p.request('POST', '/schedules/validate', s.body(templateId))
    expect(form.status).toBe(200)
    expect(await rows()).toBe(before)
  })

  it('lets members read, managers write, and nobody else', async () => {
    const schedule = await s.create(templateId)
    const as = (person: Person) =>
      new ProjectResources(world.request.bind(world), person.as, tp.p.projectId)
    for (const reader of [cast.guest, cast.task_runner]) {
      const p = as(reader)
      expect(await p.get(`/schedules/${schedule.id}`, Schedule)).toEqual(schedule)
      expect((await p.list('/schedules', ScheduleWithTemplate)).map((i) => i.id)).toContain(
        schedule.id,
      )
      const before = await rows()
      expectError(await p.request('POST', '/schedules', s.body(templateId)), 403)
      expectError(await p.request('PUT', `/schedules/${schedule.id}`, schedule), 403)
      expectError(
        await p.request('PUT', `/schedules/${schedule.id}/active`, { active: false }),
        403,
      )
      expectError(await p.request('DELETE', `/schedules/${schedule.id}`), 403)
      expectError(await p.request('POST', '/schedules/validate', { cron_format: '* * * * *' }), 403)
      expect(await rows()).toBe(before)
    }
    const outsider = as(cast.outsider)
    expectError(await outsider.request('GET', `/schedules/${schedule.id}`), 404)
    expectError(await outsider.request('GET', '/schedules'), 404)
    expectError(await outsider.request('POST', '/schedules', s.body(templateId)), 404)

    const manager = as(cast.manager)
    const made = expectBody(
      await manager.request('POST', '/schedules', s.body(templateId)),
      201,
      Schedule,
    )
    expectNoContent(await manager.request('PUT', `/schedules/${made.id}/active`, { active: false }))
    expectNoContent(await manager.request('DELETE', `/schedules/${made.id}`))
    const anonymous = await world.request('GET', `/api/project/${tp.p.projectId}/schedules`)
    expectError(anonymous, 401)
  })

  it('deletes the schedules of a deleted template', async () => {
    const template = await tp.template('ok.sh')
    const cron = await s.create(template)
    const check = await s.create(template, { repository_id: tp.repositoryId })
    expectNoContent(await tp.p.request('DELETE', `/templates/${template}`))
    for (const id of [cron.id, check.id]) {
      expectError(await tp.p.request('GET', `/schedules/${id}`), 404, 'Schedule not found')
    }
    expect((await s.list()).map((item) => item.template_id)).not.toContain(template)
  })

  it('goes away with its project', async () => {
    const q = await TaskProject.create(world, repo.path, admin)
    const schedule = await new Schedules(q).create(await q.template('ok.sh'))
    expectNoContent(await world.request('DELETE', q.p.base, { as: admin.as }))
    const left = await db.kysely
      .selectFrom('schedule')
      .select('id')
      .where('id', '=', schedule.id)
      .execute()
    expect(left).toEqual([])
  })
})

describe.each(dialects())('schedule clock on %s', (dialect) => {
  let server: InProcessServer
  let world: World
  let admin: Person
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject
  let s: Schedules

  beforeAll(async () => {
    repo = gitFixture()
    server = await startInProcessServer(dialect)
    world = new World(server)
    admin = await world.admin()
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path, admin)
    s = new Schedules(tp)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  const clock = () => server.app.schedules

  async function tasksOf(templateId: number): Promise<Task[]> {
    return tp.p.list(`/templates/${templateId}/tasks`, Task)
  }

  /** A project whose repository is a `file://` URL of its own repository, on branch main. */
  async function commitCheckProject() {
    const source = gitFixture()
    const q = await TaskProject.create(world, repo.path, admin)
    const none = (await q.p.list('/keys', Item)).find((k) => k.name === 'None')
    const repository = await q.p.repository(unique('remote'), Number(none?.id), {
      git_url: `file://${source.path}`,
      git_branch: 'main',
    })
    const template = await q.template('ok.sh', { repository_id: repository.id })
    return { source, q, repositoryId: repository.id, template, schedules: new Schedules(q) }
  }

  it('fires a schedule by itself when its time comes, and queues a task of its template', async () => {
    const template = await tp.template('ok.sh')
    const schedule = await s.create(template, { cron_format: NEW_YEAR })
    const later = await s.create(template, { cron_format: '30 0 1 1 *' })
    // A clock of its own on the same database and task queue, whose time the test moves; the
    // server's clock keeps the same schedules on the system time, where they are not due.
    const time = new TestTimers('2030-12-31T23:59:00.000Z')
    const own = new ScheduleClock({
      db: server.app.db,
      box: server.app.secrets,
      queue: server.app.tasks,
      dataDir: server.app.config.dataDir,
      log: server.app.log,
      timers: time,
    })
    await own.start()
    try {
      expect(own.scheduledIds).toEqual(expect.arrayContaining([schedule.id, later.id]))
      time.advance(59_999)
      expect(await tasksOf(template)).toEqual([])

      time.advance(1)
      const deadline = Date.now() + 20_000
      let tasks = await tasksOf(template)
      while (tasks.length === 0) {
        if (Date.now() > deadline) throw new Error('the schedule did not queue a task')
        await new Promise((resolve) => setImmediate(resolve))
        tasks = await tasksOf(template)
      }
      expect(tasks).toHaveLength(1)
      expect(tasks[0]).toMatchObject({
        template_id: template,
        user_id: null,
        schedule_id: schedule.id,
      })
      expect((await tp.waitFor(tasks[0]?.id ?? 0)).status).toBe('success')
      // Every job waits again, for its next time.
      expect(time.waiting).toBe(own.scheduledIds.length)

      // Half an hour later the other schedule comes due; the first waits for next year.
      time.advance(30 * 60_000)
      await own.stop()
      const all = await tasksOf(template)
      expect(all.map((task) => task.schedule_id).sort((a, b) => Number(a) - Number(b))).toEqual(
        [schedule.id, later.id].sort((a, b) => a - b),
      )
      expect(time.waiting).toBe(0)

      // A stopped clock fires nothing, whenever its time would have come.
      time.advance(366 * 24 * 3600_000)
      expect(await tasksOf(template)).toHaveLength(2)
      for (const task of all) await tp.waitFor(task.id)
    } finally {
      await own.stop()
    }
  })

  it('loads the active schedules and follows every change made through the API', async () => {
    const template = await tp.template('ok.sh')
    const on = await s.create(template)
    const off = await s.create(template, { active: false })
    expect(clock().scheduledIds).toContain(on.id)
    expect(clock().scheduledIds).not.toContain(off.id)
    expectNoContent(await s.setActive(off.id, true))
    expect(clock().scheduledIds).toEqual(expect.arrayContaining([on.id, off.id]))
    expectNoContent(await s.update(on, { active: false }))
    expect(clock().scheduledIds).not.toContain(on.id)
    expectNoContent(await tp.p.request('DELETE', `/schedules/${off.id}`))
    expect(clock().scheduledIds).not.toContain(off.id)
  })

  it('queues a task of the template, without a user, when a schedule comes due', async () => {
    const template = await tp.template('ok.sh')
    const schedule = await s.create(template)
    const tick = await clock().fire(schedule.id)
    expect(tick).toEqual({ outcome: 'started', taskId: expect.any(Number), commit: null })
    if (tick.outcome !== 'started') return
    const task = await tp.task(tick.taskId)
    expect(task).toMatchObject({
      template_id: template,
      project_id: tp.p.projectId,
      user_id: null,
      schedule_id: schedule.id,
    })
    expect((await tp.waitFor(task.id)).status).toBe('success')
    expect(await tp.lines(task.id)).toContain('hello from bash')
    // Every tick of a plain schedule runs the template again.
    expect((await clock().fire(schedule.id)).outcome).toBe('started')
    expect(await tasksOf(template)).toHaveLength(2)
  })

  it('does nothing for an inactive schedule, and forgets a deleted one', async () => {
    const template = await tp.template('ok.sh')
    const inactive = await s.create(template, { active: false })
    const active = await s.create(template)
    expect(await clock().fire(inactive.id)).toEqual({ outcome: 'inactive' })
    expect(await tasksOf(template)).toEqual([])

    // Deleting the template removes its schedules; a tick that still comes finds nothing.
    expect(clock().scheduledIds).toContain(active.id)
    expectNoContent(await tp.p.request('DELETE', `/templates/${template}`))
    expect(await clock().fire(active.id)).toEqual({ outcome: 'missing' })
    expect(clock().scheduledIds).not.toContain(active.id)
  })

  it('runs a commit check only when the repository has a new commit', async () => {
    const { source, q, repositoryId, template, schedules } = await commitCheckProject()
    try {
      const check = await schedules.create(template, { repository_id: repositoryId })
      // The first check has nothing to compare with, so it runs the template.
      const first = await clock().fire(check.id)
      expect(first).toEqual({
        outcome: 'started',
        taskId: expect.any(Number),
        commit: head(source.path),
      })
      expect(await clock().fire(check.id)).toEqual({
        outcome: 'unchanged',
        commit: head(source.path),
      })
      expect(await q.p.list(`/templates/${template}/tasks`, Task)).toHaveLength(1)

      const next = commit(source.path, 'second')
      const second = await clock().fire(check.id)
      expect(second).toEqual({ outcome: 'started', taskId: expect.any(Number), commit: next })
      if (second.outcome !== 'started') return
      const task = await q.waitFor(second.taskId)
      expect(task.status).toBe('success')
      expect(task.commit_hash).toBe(next)
      expect(task.user_id).toBeNull()
      expect(await clock().fire(check.id)).toEqual({ outcome: 'unchanged', commit: next })

      // An inactive commit check does not look, even when there is something new.
      expectNoContent(await schedules.setActive(check.id, false))
      commit(source.path, 'third')
      expect(await clock().fire(check.id)).toEqual({ outcome: 'inactive' })
      expect(await q.p.list(`/templates/${template}/tasks`, Task)).toHaveLength(2)
      expectNoContent(await schedules.setActive(check.id, true))
      const third = await clock().fire(check.id)
      expect(third.outcome).toBe('started')
      expect(await q.p.list(`/templates/${template}/tasks`, Task)).toHaveLength(3)
      if (third.outcome === 'started') await q.waitFor(third.taskId)
    } finally {
      source.dispose()
    }
  })

  it('checks the branch the template overrides', async () => {
    const { source, q, repositoryId, template, schedules } = await commitCheckProject()
    try {
      execFileSync('git', ['branch', 'release'], { cwd: source.path })
      const released = head(source.path)
      const body = await q.p.get(`/templates/${template}`, Item)
      expectNoContent(
        await q.p.request('PUT', `/templates/${template}`, {
          ...body,
          git_branch: 'release',
          vaults: [],
        }),
      )
      const check = await schedules.create(template, { repository_id: repositoryId })
      const first = await clock().fire(check.id)
      expect(first).toMatchObject({ outcome: 'started', commit: released })
      commit(source.path, 'on main only')
      expect(await clock().fire(check.id)).toEqual({ outcome: 'unchanged', commit: released })
      if (first.outcome === 'started') {
        const task = await q.waitFor(first.taskId)
        expect([task.status, task.commit_hash]).toEqual(['success', released])
      }
    } finally {
      source.dispose()
    }
  })

  it('reports a repository it can not read, and keeps serving', async () => {
    const { source, q, repositoryId, template, schedules } = await commitCheckProject()
    const check = await schedules.create(template, { repository_id: repositoryId })
    source.dispose()
    await expect(clock().fire(check.id)).rejects.toThrow(/git/)
    expect(await q.p.list(`/templates/${template}/tasks`, Task)).toEqual([])
    const ping = await world.request('GET', '/api/ping')
    expect(ping.text).toBe('pong')
  })

  it('runs the schedules of a restored project', async () => {
    const template = await tp.template('ok.sh')
    await s.create(template, { name: 'restored schedule' })
    const backup = expectBody(
      await world.request('GET', `${tp.p.base}/backup`, { as: admin.as }),
      200,
      ProjectBackup,
    )
    const restored = expectBody(
      await world.request('POST', '/api/projects/restore', {
        as: admin.as,
        json: { ...backup, meta: { ...backup.meta, name: unique('restored') } },
      }),
      200,
      Project,
    )
    const copies = expectBody(
      await world.request('GET', `/api/project/${restored.id}/schedules`, { as: admin.as }),
      200,
      z.array(ScheduleWithTemplate),
    )
    const copy = copies.find((item) => item.name === 'restored schedule')
    expect(copy).toBeDefined()
    expect(clock().scheduledIds).toContain(copy?.id)
  })

  it('stops every cron job when the server closes', async () => {
    expect(clock().scheduledIds.length).toBeGreaterThan(0)
    await server.close()
    expect(clock().scheduledIds).toEqual([])
  })
})
