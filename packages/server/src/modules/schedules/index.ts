import type { FastifyInstance } from 'fastify'
import type { TaskQueue } from '../tasks/index.js'
import { ScheduleClock, type ClockTimers } from './schedule-clock.js'
import { schedulesRoutes } from './schedules.routes.js'

export {
  ScheduleClock,
  type CatchUp,
  type ClockTimers,
  type TickOutcome,
} from './schedule-clock.js'

declare module 'fastify' {
  interface FastifyInstance {
    schedules: ScheduleClock
  }
}

/**
 * Creates the schedule clock, mounts the schedules API, and stops every cron job when the
 * server closes. The clock starts with `startSchedules`, after the task queue.
 */
export function schedulesModule(
  app: FastifyInstance,
  queue: TaskQueue,
  timers?: ClockTimers,
): ScheduleClock {
  const clock = new ScheduleClock({
    db: app.db,
    box: app.secrets,
    queue,
    dataDir: app.config.dataDir,
    log: app.log,
    defaultTimezone: app.config.scheduleTimezone,
    ...(timers ? { timers } : {}),
    ...(app.hasDecorator('instance') ? { holdsPlace: () => app.instance.holdsPlace() } : {}),
  })
  if (app.hasDecorator('metrics')) clock.metrics = app.metrics
  app.decorate('schedules', clock)
  schedulesRoutes(app, clock)
  app.addHook('preClose', async () => {
    await clock.stop()
  })
  return clock
}

/** Loads the schedules into the clock; from then on their cron jobs run. */
export async function startSchedules(app: FastifyInstance): Promise<void> {
  await app.schedules.start()
  if (app.hasDecorator('cluster')) {
    app.cluster.on('schedules', () => {
      app.schedules
        .reload()
        .catch((error) => app.log.error({ err: error }, 'Could not reload schedules'))
    })
  }
}
