import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  Event,
  ProjectBackup,
  Project,
  Schedule,
  SchedulePreview,
  ScheduleRun,
  ScheduleWithTemplate,
  SystemInfo,
  Task,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { loadConfig } from '../../src/config.js'
import { nextRunTimes } from '../../src/lib/cron.js'
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

  preview(body: Record<string, unknown>): Promise<HttpResult> {
    return this.p.request('POST', '/schedules/preview', body)
  }

  runs(id: number): Promise<ScheduleRun[]> {
    return this.p.list(`/schedules/${id}/runs`, ScheduleRun)
  }

  async events(): Promise<string[]> {
    return (await this.p.list('/events', Event)).map((e) => e.description)
  }
}

/** The wall-clock hour and minute of a time in a time zone, e.g. `09:00`. */
function localTime(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso))
}

/** Fields every schedule payload carries that a test does not set. */
const FRESH = { timezone: '', missed_run_policy: 'skip', last_run: null, last_miss: null }

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
    server = await startTestServer(dialect, { FLAGMAN_SCHEDULE_TIMEZONE: 'America/New_York' })
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
      ...FRESH,
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

    // A field schedules do not have is ignored: the call does what it would without it.
    const coloured = await s.create(templateId, { colour: 'colour-one' })
    expect(coloured).not.toHaveProperty('colour')
    expect(await rows()).not.toContain('colour-one')
    expectNoContent(
      await s.update(coloured, { ...coloured, name: 'recoloured', colour: 'colour-two' }),
    )
    expect(await s.get(coloured.id)).toEqual({ ...coloured, name: 'recoloured' })
    expect(await rows()).not.toContain('colour-two')
    expectNoContent(await tp.p.request('DELETE', `/schedules/${coloured.id}`))

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

  it('keeps a time zone and a missed-run policy per schedule, and refuses unknown ones', async () => {
    const created = await s.create(templateId, {
      timezone: ' Europe/Berlin ',
      missed_run_policy: 'run_once',
    })
    expect(created).toMatchObject({ timezone: 'Europe/Berlin', missed_run_policy: 'run_once' })
    expect(await s.get(created.id)).toEqual(created)

    // A client that does not know the fields leaves them as they are.
    const { timezone: _tz, missed_run_policy: _policy, ...known } = created
    expectNoContent(await s.update(created, { ...known, name: unique('renamed') }))
    const kept = await s.get(created.id)
    expect(kept).toMatchObject({ timezone: 'Europe/Berlin', missed_run_policy: 'run_once' })
    expectNoContent(await s.update(kept, { timezone: '', missed_run_policy: 'skip' }))
    expect(await s.get(created.id)).toMatchObject({ timezone: '', missed_run_policy: 'skip' })
    expect((await s.create(templateId)).timezone).toBe('')

    const before = await rows()
    const cases: Array<[Record<string, unknown>, string | RegExp]> = [
      [
        { timezone: 'Mars/Olympus_Mons' },
        'timezone "Mars/Olympus_Mons" is not a known time zone; use an IANA name such as Europe/Berlin',
      ],
      [{ timezone: '+02:00x' }, /is not a known time zone/],
      [{ timezone: 'z'.repeat(65) }, 'timezone must be at most 64 characters'],
      [{ timezone: 2 }, 'timezone must be a string'],
      [{ missed_run_policy: 'catch_up' }, 'missed_run_policy must be skip or run_once'],
      [{ missed_run_policy: null }, 'missed_run_policy must be skip or run_once'],
    ]
    for (const [fields, message] of cases) {
      expectError(
        await tp.p.request('POST', '/schedules', s.body(templateId, fields)),
        400,
        message,
      )
      expectError(await s.update(created, fields), 400, message)
    }
    expect(await rows()).toBe(before)
    expect(await s.get(created.id)).toMatchObject({ timezone: '', missed_run_policy: 'skip' })
  })

  it('names the server default time zone in the system information', async () => {
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.schedule_timezone).toBe('America/New_York')
  })

  it('previews the next five times of an expression in a time zone', async () => {
    const before = await rows()
    const berlin = expectBody(
      await s.preview({ cron_format: '30 9 * * 1-5', timezone: 'Europe/Berlin' }),
      200,
      SchedulePreview,
    )
    expect(berlin.timezone).toBe('Europe/Berlin')
    expect(berlin.next_runs).toHaveLength(5)
    const times = berlin.next_runs.map((t) => Date.parse(t))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
    expect(new Set(times).size).toBe(5)
    for (const time of berlin.next_runs) {
      expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/)
      expect(localTime(time, 'Europe/Berlin')).toBe('09:30')
    }

    // An empty or missing time zone is the server's default.
    for (const timezone of ['', undefined]) {
      const preview = expectBody(
        await s.preview({ cron_format: '0 6 * * *', timezone }),
        200,
        SchedulePreview,
      )
      expect(preview.timezone).toBe('America/New_York')
      for (const time of preview.next_runs) {
        expect(localTime(time, 'America/New_York')).toBe('06:00')
      }
    }
    // A whole schedule form may be sent.
    const form = await s.preview(s.body(templateId, { cron_format: '@hourly', timezone: 'UTC' }))
    expect(expectBody(form, 200, SchedulePreview).next_runs).toHaveLength(5)

    // The same refusals as validating.
    expectError(await s.preview({ cron_format: '61 * * * *' }), 400, /^Cron: .*minute/)
    expectError(await s.preview({ cron_format: '' }), 400, 'Cron: the expression is empty')
    expectError(await s.preview({ cron_format: 'every day' }), 400, /^Cron: /)
    expectError(await s.preview({ timezone: 'UTC' }), 400, 'cron_format is required')
    expectError(
      await s.preview({ cron_format: '* * * * *', timezone: 'Nowhere/Land' }),
      400,
      /is not a known time zone/,
    )
    // Readers may preview too; nothing is stored.
    const guest = new ProjectResources(world.request.bind(world), cast.guest.as, tp.p.projectId)
    const asGuest = await guest.request('POST', '/schedules/preview', { cron_format: '@daily' })
    expect(expectBody(asGuest, 200, SchedulePreview).next_runs).toHaveLength(5)
    expect(await rows()).toBe(before)
  })

  it('reads a time zone change of the clocks across daylight saving time', () => {
    // Berlin moves its clocks forward on 29 March 2026: 09:00 is 08:00 UTC before, 07:00 after.
    const times = nextRunTimes('0 9 * * *', 'Europe/Berlin', 3, new Date('2026-03-28T00:00:00Z'))
    expect(times.map((t) => t.toISOString())).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ])
  })

  it('refuses an unknown default time zone when the server starts', () => {
    const config = (value: string) => loadConfig({ FLAGMAN_SCHEDULE_TIMEZONE: value }, '')
    expect(config('Asia/Tokyo').scheduleTimezone).toBe('Asia/Tokyo')
    expect(config('').scheduleTimezone).toBe('UTC')
    expect(loadConfig({}, '').scheduleTimezone).toBe('UTC')
    expect(() => config('Mars/Base')).toThrow(
      /^Invalid setting FLAGMAN_SCHEDULE_TIMEZONE: unknown time zone/,
    )
  })

  it('lists no runs for a schedule that has not come due, and answers 404 for an unknown one', async () => {
    const schedule = await s.create(templateId)
    expect(await s.runs(schedule.id)).toEqual([])
    expectError(await tp.p.request('GET', '/schedules/999999/runs'), 404, 'Schedule not found')
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
    const { own, time } = await ownClock('2030-12-31T23:59:00.000Z')
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

  /**
   * A clock of its own on the server's database and task queue, at a time the test moves.
   * Every schedule counts as watched until `start` unless `watchedUntil` says otherwise for
   * it, so only the times a test means to be missed are.
   */
  async function ownClock(
    start: string,
    options: { defaultTimezone?: string; watchedUntil?: Record<number, string> } = {},
  ): Promise<{ own: ScheduleClock; time: TestTimers }> {
    const db = server.app.db.kysely
    await db.updateTable('schedule').set({ evaluated_until: start }).execute()
    for (const [id, until] of Object.entries(options.watchedUntil ?? {})) {
      await db
        .updateTable('schedule')
        .set({ evaluated_until: until })
        .where('id', '=', Number(id))
        .execute()
    }
    const time = new TestTimers(start)
    const own = new ScheduleClock({
      db: server.app.db,
      box: server.app.secrets,
      queue: server.app.tasks,
      dataDir: server.app.config.dataDir,
      log: server.app.log,
      timers: time,
      defaultTimezone: options.defaultTimezone,
    })
    await own.start()
    return { own, time }
  }

  /** Switches the schedules off, so later clocks of the file leave them alone. */
  async function retire(...schedules: Schedule[]): Promise<void> {
    for (const schedule of schedules) expectNoContent(await s.setActive(schedule.id, false))
  }

  async function finish(template: number): Promise<Task[]> {
    const finished: Task[] = []
    for (const task of await tasksOf(template)) finished.push(await tp.waitFor(task.id))
    return finished
  }

  it('reads each expression in its schedule time zone, or in the server default', async () => {
    const inTokyo = await tp.template('ok.sh')
    const byDefault = await tp.template('ok.sh')
    const tokyo = await s.create(inTokyo, { cron_format: '0 9 2,3 1 *', timezone: 'Asia/Tokyo' })
    const plain = await s.create(byDefault, { cron_format: '0 9 2 1 *' })
    const { own, time } = await ownClock('2031-01-01T23:59:00.000Z', {
      defaultTimezone: 'America/New_York',
    })
    try {
      // Midnight UTC is nine in the morning in Tokyo; New York is still on the day before.
      time.advance(60_000)
      await own.idle()
      const [first] = await finish(inTokyo)
      expect(await tasksOf(byDefault)).toEqual([])
      // Nine in the morning in New York is 14:00 UTC in winter.
      time.advance(14 * 3600_000 - 1)
      await own.idle()
      expect(await tasksOf(byDefault)).toEqual([])
      time.advance(1)
      await own.idle()
      const [second] = await finish(byDefault)

      for (const [schedule, task, due] of [
        [tokyo, first, '2031-01-02T00:00:00.000Z'],
        [plain, second, '2031-01-02T14:00:00.000Z'],
      ] as const) {
        expect(task).toMatchObject({ schedule_id: schedule.id, user_id: null })
        const runs = await s.runs(schedule.id)
        expect(runs).toEqual([
          {
            id: expect.any(Number),
            schedule_id: schedule.id,
            due,
            fired: expect.any(String),
            outcome: 'started',
            reason: null,
            count: 1,
            task_id: task?.id,
          },
        ])
        // Fired when the clock's time had reached the due time, never before.
        expect(Date.parse(runs[0]?.fired ?? '')).toBeGreaterThanOrEqual(Date.parse(due))
        const read = await s.get(schedule.id)
        expect(read.last_run).toEqual({ due, fired: runs[0]?.fired, task_id: task?.id })
        expect(read.last_miss).toBeNull()
        const listed = (await s.list()).find((item) => item.id === schedule.id)
        expect(listed?.last_run).toEqual(read.last_run)
      }

      // A new time zone takes effect with the next load, without a restart: the 3rd is no
      // longer due at midnight UTC, but at nine in London.
      expectNoContent(await s.update(await s.get(tokyo.id), { timezone: 'Europe/London' }))
      await own.reload()
      time.advance(10 * 3600_000)
      await own.idle()
      expect(await tasksOf(inTokyo)).toHaveLength(1)
      time.advance(9 * 3600_000)
      await own.idle()
      expect(await finish(inTokyo)).toHaveLength(2)
      expect((await s.runs(tokyo.id))[0]?.due).toBe('2031-01-03T09:00:00.000Z')
    } finally {
      await own.stop()
      await retire(tokyo, plain)
    }
  })

  it('records a due time as missed while the template is still busy, with an event', async () => {
    const template = await tp.template('sleep.sh')
    const schedule = await s.create(template, { cron_format: '0 12 1 1 *' })
    const { own, time } = await ownClock('2031-01-01T11:59:00.000Z')
    try {
      const blocking = await tp.run(template)
      await tp.waitForLine(blocking.id, /^started$/)
      time.advance(60_000)
      await own.idle()
      expect((await tasksOf(template)).map((t) => t.id)).toEqual([blocking.id])
      const due = '2031-01-01T12:00:00.000Z'
      expect(await s.runs(schedule.id)).toEqual([
        {
          id: expect.any(Number),
          schedule_id: schedule.id,
          due,
          fired: expect.any(String),
          outcome: 'missed',
          reason: 'template_busy',
          count: 1,
          task_id: null,
        },
      ])
      expect((await s.get(schedule.id)).last_miss).toEqual({
        due,
        reason: 'template_busy',
        count: 1,
        task_id: null,
      })
      expect((await s.get(schedule.id)).last_run).toBeNull()
      expect(await s.events()).toContain(
        `Schedule ID ${schedule.id} missed its run due at ${due}: template ID ${template} was still busy with task ID ${blocking.id}`,
      )

      // Once the template is free the next due time runs.
      expectNoContent(await tp.p.request('POST', `/tasks/${blocking.id}/stop`, { force: true }))
      await tp.waitFor(blocking.id)
      const next = await own.fire(schedule.id, Date.parse('2032-01-01T12:00:00.000Z'))
      expect(next).toEqual({ outcome: 'started', taskId: expect.any(Number), commit: null })
      if (next.outcome === 'started') {
        await tp.waitForLine(next.taskId, /^started$/)
        expectNoContent(await tp.p.request('POST', `/tasks/${next.taskId}/stop`, { force: true }))
      }
      await finish(template)
      const read = await s.get(schedule.id)
      expect(read.last_run?.due).toBe('2032-01-01T12:00:00.000Z')
      expect(read.last_miss?.due).toBe(due)
    } finally {
      await own.stop()
      await retire(schedule)
    }
  })

  it('records times missed while the server was down, and skips them by default', async () => {
    const template = await tp.template('ok.sh')
    const schedule = await s.create(template, { cron_format: '0 0 1 1 *' })
    // Last watched at the end of 2029; the server comes back in the middle of 2032.
    const { own } = await ownClock('2032-06-01T00:00:00.000Z', {
      watchedUntil: { [schedule.id]: '2029-12-31T00:00:00.000Z' },
    })
    try {
      const due = '2032-01-01T00:00:00.000Z'
      expect(own.lastCatchUp).toEqual([{ scheduleId: schedule.id, count: 3, due, taskId: null }])
      expect(await tasksOf(template)).toEqual([])
      expect(await s.runs(schedule.id)).toEqual([
        {
          id: expect.any(Number),
          schedule_id: schedule.id,
          due,
          fired: '2032-06-01T00:00:00.000Z',
          outcome: 'missed',
          reason: 'server_down',
          count: 3,
          task_id: null,
        },
      ])
      const read = await s.get(schedule.id)
      expect(read.last_miss).toEqual({ due, reason: 'server_down', count: 3, task_id: null })
      expect(read.last_run).toBeNull()
      expect(await s.events()).toContain(
        `Schedule ID ${schedule.id} missed 3 run(s) while the server was down (last due at ${due}); skipped`,
      )
    } finally {
      await own.stop()
    }
    // A second start finds nothing more to catch up.
    const again = await ownClock('2032-06-01T00:00:00.000Z', {
      watchedUntil: { [schedule.id]: '2029-12-31T00:00:00.000Z' },
    })
    try {
      expect(again.own.lastCatchUp).toEqual([])
      expect(await s.runs(schedule.id)).toHaveLength(1)
    } finally {
      await again.own.stop()
      await retire(schedule)
    }
  })

  it('runs times missed while the server was down once at start, when the schedule asks so', async () => {
    const template = await tp.template('ok.sh')
    const schedule = await s.create(template, {
      cron_format: '0 0 * * *',
      missed_run_policy: 'run_once',
    })
    const other = await s.create(await tp.template('ok.sh'), { cron_format: '0 0 1 1 *' })
    const { own } = await ownClock('2031-03-05T10:00:00.000Z', {
      watchedUntil: { [schedule.id]: '2031-03-01T12:00:00.000Z' },
    })
    try {
      const due = '2031-03-05T00:00:00.000Z'
      const [task] = await finish(template)
      expect(task).toMatchObject({ schedule_id: schedule.id, user_id: null, status: 'success' })
      // Only the schedule that was not watched missed anything.
      expect(own.lastCatchUp).toEqual([
        { scheduleId: schedule.id, count: 4, due, taskId: task?.id },
      ])
      expect(await s.runs(schedule.id)).toEqual([
        {
          id: expect.any(Number),
          schedule_id: schedule.id,
          due,
          fired: '2031-03-05T10:00:00.000Z',
          outcome: 'started',
          reason: 'server_down',
          count: 4,
          task_id: task?.id,
        },
      ])
      expect(await s.runs(other.id)).toEqual([])
      const read = await s.get(schedule.id)
      expect(read.last_run).toEqual({ due, fired: '2031-03-05T10:00:00.000Z', task_id: task?.id })
      expect(read.last_miss).toEqual({ due, reason: 'server_down', count: 4, task_id: task?.id })
      expect(await s.events()).toContain(
        `Schedule ID ${schedule.id} missed 4 run(s) while the server was down (last due at ${due}); running it once now`,
      )
    } finally {
      await own.stop()
      await retire(schedule, other)
    }
  })

  it('fires a due time once, however many clocks see it at once', async () => {
    const template = await tp.template('ok.sh')
    const schedule = await s.create(template, { cron_format: '0 6 1 1 *' })
    const start = '2031-01-01T05:59:00.000Z'
    const clocks = [await ownClock(start)]
    for (let i = 0; i < 5; i++) {
      const time = new TestTimers(start)
      const own = new ScheduleClock({
        db: server.app.db,
        box: server.app.secrets,
        queue: server.app.tasks,
        dataDir: server.app.config.dataDir,
        log: server.app.log,
        timers: time,
      })
      await own.start()
      clocks.push({ own, time })
    }
    try {
      for (const { time } of clocks) time.advance(60_000)
      await Promise.all(clocks.map(({ own }) => own.idle()))
      const tasks = await finish(template)
      expect(tasks).toHaveLength(1)
      const runs = await s.runs(schedule.id)
      expect(runs.map((r) => [r.due, r.outcome, r.task_id])).toEqual([
        ['2031-01-01T06:00:00.000Z', 'started', tasks[0]?.id],
      ])
      // Asked again directly, every clock finds the time taken.
      const again = await Promise.all(
        clocks.map(({ own }) => own.fire(schedule.id, Date.parse('2031-01-01T06:00:00.000Z'))),
      )
      expect(again).toEqual(clocks.map(() => ({ outcome: 'taken' })))
      expect(await tasksOf(template)).toHaveLength(1)
    } finally {
      await Promise.all(clocks.map(({ own }) => own.stop()))
      await retire(schedule)
    }
  })

  it('records a task that could not be created as a miss, with the reason', async () => {
    // A required survey variable that a scheduled task can not fill in.
    const template = await tp.template('ok.sh', {
      survey_vars: [{ name: 'greeting', title: 'Greeting', type: '', required: true }],
    })
    const schedule = await s.create(template, { cron_format: '0 0 1 1 *' })
    try {
      const due = '2033-01-01T00:00:00.000Z'
      await expect(clock().fire(schedule.id, Date.parse(due))).rejects.toThrow(
        'Survey variable greeting is required',
      )
      expect(await tasksOf(template)).toEqual([])
      const [run] = await s.runs(schedule.id)
      expect(run).toMatchObject({ due, outcome: 'missed', reason: 'error', task_id: null })
      expect((await s.get(schedule.id)).last_miss).toEqual({
        due,
        reason: 'error',
        count: 1,
        task_id: null,
      })
      expect(await s.events()).toContain(
        `Schedule ID ${schedule.id} missed its run due at ${due}: the task could not be started (Survey variable greeting is required)`,
      )
    } finally {
      await retire(schedule)
    }
  })

  it('stops every cron job when the server closes', async () => {
    expect(clock().scheduledIds.length).toBeGreaterThan(0)
    await server.close()
    expect(clock().scheduledIds).toEqual([])
  })
})
