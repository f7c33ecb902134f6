import { randomBytes } from 'node:crypto'
import { Schedule } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, dialects, type ScratchDatabase } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectBody } from '../support/http.js'
import { startInProcessServer, type InProcessServer } from '../support/in-process.js'
import { ManualTimers } from '../support/manual-timers.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'
import { until } from '../support/wait.js'

/*
 * Three instances on one PostgreSQL database, each with a schedule clock the test moves:
 * a schedule due every minute must start exactly one task per due time, whichever instances
 * see it, and an instance held up past due times (paused, then woken with its clock late)
 * must not start a task for a time the others dealt with. The instances run in this process
 * (that is what lets the test hold their clocks), each under a host name of its own.
 */

const MINUTE = 60_000
const TICKS = 5

describe.runIf(dialects().includes('postgres'))(
  'a schedule on three instances of one PostgreSQL database',
  () => {
    // One second past a minute: the next due time is a minute minus a second away.
    const start = Math.floor(Date.now() / MINUTE) * MINUTE + 1_000
    const clocks = ['a', 'b', 'c'].map(() => new ManualTimers(start))
    const servers: InProcessServer[] = []
    let database: ScratchDatabase
    const repo = gitRepository({ 'quick.sh': 'echo "run $SEMAPHORE_TASK_ID"\n' })

    beforeAll(async () => {
      database = await createScratchDatabase('postgres')
      const env = {
        FLAGMAN_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
        FLAGMAN_INSTANCE_TIMEOUT_SECONDS: '30',
      }
      for (const [index, clock] of clocks.entries()) {
        servers.push(
          await startInProcessServer('postgres', {
            database,
            env,
            app: { scheduleTimers: clock, instanceHost: `schedule-node-${index}` },
          }),
        )
      }
    }, 90_000)

    afterAll(async () => {
      for (const server of servers) await server.stop()
      await database?.drop()
      repo.dispose()
    })

    it('starts exactly one task per due time, and a late instance starts none', async () => {
      const world = new World(servers[0]!)
      await activateScriptApps(world)
      const tp = await TaskProject.create(world, repo.path)
      const templateId = await tp.template('quick.sh')
      const schedule = expectBody(
        await tp.p.request('POST', '/schedules', {
          name: 'every minute',
          template_id: templateId,
          cron_format: '* * * * *',
          project_id: tp.p.projectId,
        }),
        201,
        Schedule,
      )
      // Created through one instance, the schedule is loaded by all three.
      await until('every instance to load the schedule', () =>
        servers.every((server) => server.app.schedules.scheduledIds.includes(schedule.id)),
      )

      const db = await world.openDb()
      try {
        const scheduledTasks = () =>
          db.kysely
            .selectFrom('task')
            .select(['id', 'status'])
            .where('schedule_id', '=', schedule.id)
            .orderBy('id')
            .execute()
        // The third instance is held up for the whole run; the other two see every minute.
        const [a, b, late] = clocks as [ManualTimers, ManualTimers, ManualTimers]
        for (let tick = 1; tick <= TICKS; tick += 1) {
          a.advance(MINUTE)
          b.advance(MINUTE)
          await Promise.all(servers.map((server) => server.app.schedules.idle()))
          await until(`the task of tick ${tick} to finish`, async () => {
            const tasks = await scheduledTasks()
            return tasks.length === tick && tasks.every((t) => t.status === 'success')
          })
        }
        // It wakes with its clock five minutes late and finds it was taken for dead meanwhile
        // (its row is gone, as another instance removes a silent one's): its cron job fires
        // once, is fenced, and the instance joins again.
        const lateInstance = servers[2]!.app.instance.id
        const removeLate = () =>
          db.kysely.deleteFrom('server_instance').where('id', '=', lateInstance).execute()
        await removeLate()
        late.jump(TICKS * MINUTE)
        await servers[2]!.app.schedules.idle()
        await until('the fenced instance to join again', async () =>
          Boolean(
            await db.kysely
              .selectFrom('server_instance')
              .select('id')
              .where('id', '=', lateInstance)
              .executeTakeFirst(),
          ),
        )
        // Fenced, a due time no one dealt with is not fired either; holding its place, the
        // same instance fires one the others dealt with and is refused by the record.
        await removeLate()
        const unclaimed = Math.ceil(start / MINUTE) * MINUTE + 60 * MINUTE
        expect(await servers[2]!.app.schedules.fire(schedule.id, unclaimed)).toEqual({
          outcome: 'fenced',
        })
        await until('the fenced instance to join again', async () =>
          servers[2]!.app.instance.holdsPlace(),
        )
        const firstDue = Math.ceil(start / MINUTE) * MINUTE
        expect(await servers[2]!.app.schedules.fire(schedule.id, firstDue)).toEqual({
          outcome: 'taken',
        })
        // Once more on time, all three together: still one task.
        for (const clock of clocks) clock.advance(MINUTE)
        await Promise.all(servers.map((server) => server.app.schedules.idle()))
        await until('the task of the last tick to finish', async () => {
          const tasks = await scheduledTasks()
          return tasks.length === TICKS + 1 && tasks.every((t) => t.status === 'success')
        })

        const runs = await db.kysely
          .selectFrom('schedule_run')
          .select(['due', 'outcome', 'task_id'])
          .where('schedule_id', '=', schedule.id)
          .orderBy('due')
          .execute()
        expect(runs.map((run) => run.due)).toEqual(
          Array.from({ length: TICKS + 1 }, (_, i) =>
            new Date(firstDue + i * MINUTE).toISOString(),
          ),
        )
        expect(runs.every((run) => run.outcome === 'started')).toBe(true)
        const tasks = await scheduledTasks()
        expect(tasks).toHaveLength(TICKS + 1)
        expect(runs.map((run) => run.task_id)).toEqual(tasks.map((task) => task.id))
      } finally {
        await db.destroy()
      }
    }, 120_000)
  },
)
