import { scheduleRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import type { ScheduleClock } from './schedule-clock.js'
import * as schedules from './schedules.service.js'

/** The schedules API; every change reloads the clock so it runs what is stored. */
export function schedulesRoutes(app: FastifyInstance, clock: ScheduleClock): void {
  const r = scheduleRoutes
  // The other server instances reload theirs too: a schedule runs on whichever is alive.
  const changed = async () => {
    await clock.reload()
    if (app.hasDecorator('cluster')) app.cluster.announce('schedules')
  }
  mount(app, r.list, async ({ db, project }) => schedules.listSchedules(db, project.projectId))
  mount(app, r.get, async ({ db, project, params }) =>
    schedules.getSchedule(db, project.projectId, params.schedule_id),
  )
  mount(app, r.validate, async ({ body }) => schedules.assertValidCron(body.cron_format))
  mount(app, r.preview, async ({ config, body }) =>
    schedules.previewSchedule(body, config.scheduleTimezone, clock.now()),
  )
  mount(app, r.runs, async ({ db, project, params }) =>
    schedules.listScheduleRuns(db, project.projectId, params.schedule_id),
  )
  mount(app, r.create, async ({ db, actor, project, body }) => {
    const created = await schedules.createSchedule(db, actor, project.projectId, body)
    await changed()
    return created
  })
  mount(app, r.update, async ({ db, actor, project, params, body }) => {
    await schedules.updateSchedule(db, actor, project.projectId, params.schedule_id, body)
    await changed()
  })
  mount(app, r.setActive, async ({ db, actor, project, params, body }) => {
    await schedules.setScheduleActive(db, actor, project.projectId, params.schedule_id, body.active)
    await changed()
  })
  mount(app, r.remove, async ({ db, actor, project, params }) => {
    await schedules.deleteSchedule(db, actor, project.projectId, params.schedule_id)
    await changed()
  })
}
