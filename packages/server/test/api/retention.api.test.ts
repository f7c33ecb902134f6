import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Project } from '@flagman/contract'
import { insertReturningId, type Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { gitFixture, TaskProject } from '../support/tasks.js'
import { until } from '../support/wait.js'

/*
 * Retention against the real server process: the background job (every second here) must
 * remove exactly the finished tasks older than each project's limit (or the server's
 * default), the runs beyond a project's cap per template and the events older than theirs,
 * with the tasks' log lines and working folders, and nothing else. Ages sit an hour on either
 * side of each limit, so the test does not depend on when the sweep runs.
 */

const HOUR = 3_600_000
const DAY = 24 * HOUR
const SERVER_DEFAULT_DAYS = 30
const EVENT_DAYS = 90
/** Lines of the biggest removed log: more than one removal chunk. */
const LONG_LOG = 12_000

interface Planned {
  label: string
  project: TaskProject
  templateId: number
  ageMs: number
  status?: string
  lines?: number
  /** Whether the sweep must remove it. */
  due: boolean
}

describe.each(dialects())('retention by age on %s', (dialect) => {
  let server: TestServer
  let world: World
  let db: Db
  const repo = gitFixture()

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      FLAGMAN_TASK_RETENTION_DAYS: String(SERVER_DEFAULT_DAYS),
      FLAGMAN_EVENT_RETENTION_DAYS: String(EVENT_DAYS),
      FLAGMAN_RETENTION_INTERVAL_SECONDS: '1',
    })
    world = new World(server)
    db = await world.openDb()
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    repo.dispose()
  })

  async function projectWith(settings: Record<string, unknown>): Promise<TaskProject> {
    const tp = await TaskProject.create(world, repo.path)
    const admin = await world.admin()
    const id = tp.p.projectId
    const updated = await world.request('PUT', `/api/project/${id}`, {
      as: admin.as,
      json: { name: `retention ${id}`, ...settings },
    })
    expect(updated.status).toBe(204)
    const read = expectBody(
      await world.request('GET', `/api/project/${id}`, { as: admin.as }),
      200,
      Project,
    )
    for (const [key, value] of Object.entries(settings)) {
      expect(read[key as keyof Project]).toBe(value)
    }
    return tp
  }

  it('removes exactly what is older than each limit, with logs and working folders', async () => {
    const now = Date.now()
    const tenDays = await projectWith({ task_retention_days: 10 })
    const serverDefault = await projectWith({ task_retention_days: null })
    // Its cap is set once its history is in place (below).
    const capped = await projectWith({ task_retention_days: 0 })
    const tenTpl = await tenDays.template('ok.sh')
    const defaultTpl = await serverDefault.template('ok.sh')
    const cappedTpl = await capped.template('ok.sh')
    const cappedOther = await capped.template('ok.sh')

    const plan: Planned[] = [
      {
        label: '10 days: 11 days old',
        project: tenDays,
        templateId: tenTpl,
        ageMs: 11 * DAY,
        lines: LONG_LOG,
        due: true,
      },
      {
        label: '10 days: just over',
        project: tenDays,
        templateId: tenTpl,
        ageMs: 10 * DAY + HOUR,
        status: 'error',
        due: true,
      },
      {
        label: '10 days: just under',
        project: tenDays,
        templateId: tenTpl,
        ageMs: 10 * DAY - HOUR,
        due: false,
      },
      { label: '10 days: recent', project: tenDays, templateId: tenTpl, ageMs: DAY, due: false },
      {
        label: '10 days: old but unfinished',
        project: tenDays,
        templateId: tenTpl,
        ageMs: 40 * DAY,
        // Unfinished, and not one the queue would start meanwhile.
        status: 'stopping',
        due: false,
      },
      {
        label: 'default: just over',
        project: serverDefault,
        templateId: defaultTpl,
        ageMs: SERVER_DEFAULT_DAYS * DAY + HOUR,
        status: 'stopped',
        due: true,
      },
      {
        label: 'default: just under',
        project: serverDefault,
        templateId: defaultTpl,
        ageMs: SERVER_DEFAULT_DAYS * DAY - HOUR,
        due: false,
      },
      ...[5, 4, 3, 2, 1].map((n) => ({
        label: `capped: run ${n} of 5`,
        project: capped,
        templateId: cappedTpl,
        ageMs: 400 * DAY + n * HOUR,
        // The three newest of five are kept.
        due: n >= 4,
      })),
      {
        label: 'capped other: 1',
        project: capped,
        templateId: cappedOther,
        ageMs: 1000 * DAY,
        due: false,
      },
      {
        label: 'capped other: 2',
        project: capped,
        templateId: cappedOther,
        ageMs: 999 * DAY,
        due: false,
      },
    ]

    // Oldest first, so ids grow with age as they do in a real history. Each is created young
    // and aged once its log and folder are in place, so that a sweep (one runs every second)
    // never meets half a task.
    const ordered = [...plan].sort((a, b) => b.ageMs - a.ageMs)
    const ids = new Map<Planned, number>()
    for (const task of ordered) {
      const created = new Date(now).toISOString()
      const id = await insertReturningId(db, 'task', {
        project_id: task.project.p.projectId,
        template_id: task.templateId,
        status: task.status ?? 'success',
        debug: 0,
        dry_run: 0,
        diff: 0,
        created,
        start: created,
        end: task.status === 'stopping' ? null : created,
      })
      ids.set(task, id)
      const lines = task.lines ?? 3
      for (let from = 0; from < lines; from += 1000) {
        const batch = Array.from({ length: Math.min(1000, lines - from) }, (_, i) => ({
          task_id: id,
          line: from + i + 1,
          time: created,
          output: `line ${from + i + 1} of task ${id}`,
        }))
        await db.kysely.insertInto('task_output').values(batch).execute()
      }
      const folder = join(
        server.dataDir,
        'work',
        `project_${task.project.p.projectId}`,
        `task_${id}_tmp_abc123`,
      )
      mkdirSync(folder, { recursive: true })
      writeFileSync(join(folder, 'key'), 'left behind by a crash')
    }
    const idOf = (label: string) => ids.get(plan.find((task) => task.label === label)!)!
    // A deploy run that is kept names a build run that is removed: the link is cleared.
    await db.kysely
      .updateTable('task')
      .set({ build_task_id: idOf('10 days: 11 days old') })
      .where('id', '=', idOf('10 days: just under'))
      .execute()

    for (const task of ordered) {
      const created = new Date(now - task.ageMs).toISOString()
      await db.kysely
        .updateTable('task')
        .set({ created })
        .where('id', '=', ids.get(task)!)
        .execute()
    }
    const cap = await world.request('PUT', `/api/project/${capped.p.projectId}`, {
      as: (await world.admin()).as,
      json: { name: `retention ${capped.p.projectId}`, max_tasks_per_template: 3 },
    })
    expect(cap.status).toBe(204)

    const oldEvent = await insertReturningId(db, 'event', {
      project_id: tenDays.p.projectId,
      object_type: 'task',
      description: 'older than the events limit',
      created: new Date(now - EVENT_DAYS * DAY - HOUR).toISOString(),
    })
    const keptEvent = await insertReturningId(db, 'event', {
      project_id: tenDays.p.projectId,
      object_type: 'task',
      description: 'younger than the events limit',
      created: new Date(now - EVENT_DAYS * DAY + HOUR).toISOString(),
    })

    const due = plan.filter((task) => task.due).map((task) => ids.get(task)!)
    const kept = plan.filter((task) => !task.due).map((task) => ids.get(task)!)
    const all = [...due, ...kept]
    const remaining = async () =>
      (await db.kysely.selectFrom('task').select('id').where('id', 'in', all).execute())
        .map((row) => row.id)
        .sort((a, b) => a - b)
    await until('the due tasks to be removed', async () => {
      const left = await remaining()
      return due.every((id) => !left.includes(id))
    })
    // One more sweep, so that a wrong removal would have happened by now.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await remaining()).toEqual([...kept].sort((a, b) => a - b))

    const linesOf = async (taskIds: number[]) =>
      Number(
        (
          await db.kysely
            .selectFrom('task_output')
            .select(db.kysely.fn.countAll().as('n'))
            .where('task_id', 'in', taskIds)
            .executeTakeFirstOrThrow()
        ).n,
      )
    expect(await linesOf(due)).toBe(0)
    expect(await linesOf(kept)).toBe(kept.length * 3)

    for (const task of plan) {
      const folder = join(
        server.dataDir,
        'work',
        `project_${task.project.p.projectId}`,
        `task_${ids.get(task)}_tmp_abc123`,
      )
      expect(existsSync(folder), `${task.label}: working folder`).toBe(!task.due)
    }

    const deploy = await db.kysely
      .selectFrom('task')
      .select('build_task_id')
      .where('id', '=', idOf('10 days: just under'))
      .executeTakeFirstOrThrow()
    expect(deploy.build_task_id).toBeNull()

    const events = await db.kysely
      .selectFrom('event')
      .select('id')
      .where('id', 'in', [oldEvent, keptEvent])
      .execute()
    expect(events.map((row) => row.id)).toEqual([keptEvent])

    // The API agrees: a removed task is gone, a kept one is there with its log.
    const admin = await world.admin()
    const removed = await world.request(
      'GET',
      `/api/project/${tenDays.p.projectId}/tasks/${idOf('10 days: just over')}`,
      { as: admin.as },
    )
    expect(removed.status).toBe(404)
    const stays = await tenDays.lines(idOf('10 days: just under'))
    expect(stays).toHaveLength(3)
  })

  it("tells signed-in users the server's defaults", async () => {
    const admin = await world.admin()
    const info = await world.request('GET', '/api/info', { as: admin.as })
    expect(info.body).toMatchObject({
      task_retention_days: SERVER_DEFAULT_DAYS,
      event_retention_days: EVENT_DAYS,
    })
  })

  it('refuses retention settings out of range with a message, changing nothing', async () => {
    const tp = await projectWith({ task_retention_days: 7 })
    const admin = await world.admin()
    const id = tp.p.projectId
    for (const [body, message] of [
      [{ task_retention_days: -1 }, 'task_retention_days must be 0 or greater'],
      [{ task_retention_days: 1.5 }, 'task_retention_days must be an integer'],
      [{ task_retention_days: 36_501 }, 'task_retention_days must be at most 36500'],
      [
        { max_tasks_per_template: 0 },
        'max_tasks_per_template must be 1 or greater (null: no limit)',
      ],
      [{ max_tasks_per_template: '5' }, 'max_tasks_per_template must be an integer'],
    ] as const) {
      const result = await world.request('PUT', `/api/project/${id}`, {
        as: admin.as,
        json: { name: 'changed', ...body },
      })
      expect(result.status).toBe(400)
      expect(result.body).toEqual({ error: message })
    }
    const read = expectBody(
      await world.request('GET', `/api/project/${id}`, { as: admin.as }),
      200,
      Project,
    )
    expect(read.name).toBe(`retention ${id}`)
    expect(read.task_retention_days).toBe(7)
    expect(read.max_tasks_per_template).toBeNull()
    // Left out of an update (as the compatible console does), the settings stay.
    const plain = await world.request('PUT', `/api/project/${id}`, {
      as: admin.as,
      json: { name: 'renamed', alert: false },
    })
    expect(plain.status).toBe(204)
    const after = expectBody(
      await world.request('GET', `/api/project/${id}`, { as: admin.as }),
      200,
      Project,
    )
    expect(after.task_retention_days).toBe(7)
  })
})
