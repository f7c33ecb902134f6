import { nowIso } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import { publicBaseUrl } from '../../platform/public-url.js'
import type { TaskQueue } from '../tasks/index.js'
import type { WebBase } from './alert-facts.js'
import { isAlertingStatus } from './alert-message.js'
import { AlertOutbox } from './alert-outbox.js'
import { alertsRoutes } from './alerts.routes.js'
import { alertsForStatus } from './task-alerts.js'

export { loadAlertConfig, type AlertConfig } from './alert.config.js'
export { AlertOutbox } from './alert-outbox.js'

/**
 * Alerts of task status changes: every change the task queue announces that alerts is
 * turned into outbox rows, which a background sender delivers with retries, writing each
 * attempt into the task's log. The sender starts when the server is ready and stops, with
 * attempts under way offered again later, when it closes. Mounts the test-alert route.
 */
export function alertsModule(app: FastifyInstance, tasks: TaskQueue): AlertOutbox {
  const config = app.config.alerts
  const base: WebBase = () => publicBaseUrl(app)
  const outbox = new AlertOutbox({
    db: app.db,
    config,
    log: app.log,
    say: (taskId, projectId, output) =>
      tasks.logs.append(taskId, projectId, [{ time: nowIso(), output }]),
    ...(app.hasDecorator('metrics') ? { metrics: app.metrics } : {}),
  })
  tasks.events.on('update', (update) => {
    if (!isAlertingStatus(update.status)) return
    // Off the task's path: the task has ended (or waits) whatever becomes of its alerts.
    void alertsForStatus(app.db, config, update.task_id, update.status, base())
      .then((alerts) => outbox.add(alerts))
      .catch((error) =>
        app.log.error({ err: error }, `Could not queue the alerts of task ${update.task_id}`),
      )
  })
  alertsRoutes(app, base)
  app.addHook('onReady', async () => {
    outbox.start()
  })
  app.addHook('preClose', async () => {
    await outbox.stop()
    await tasks.logs.flushAll()
  })
  return outbox
}
