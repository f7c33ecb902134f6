import { runJob } from '@flagman/executor'
import type { FastifyInstance } from 'fastify'
import { publicBaseUrl } from '../../platform/public-url.js'
import { createTaskQueue, type RunJob, type TaskQueue } from './task-queue.js'
import { tasksRoutes } from './tasks.routes.js'

export { TaskEvents } from './task-events.js'
export { createTaskQueue, TaskQueue, type RunJob } from './task-queue.js'
export { createTask } from './tasks.service.js'
export { checkExternalVariables } from './task-overrides.js'
export { loadJobRepository } from './job-spec.js'
export { ACTIVE_STATUSES } from './task-state.js'

declare module 'fastify' {
  interface FastifyInstance {
    tasks: TaskQueue
  }
}

/**
 * Creates the server's task queue, mounts the task API, and stops running tasks cleanly
 * when the server closes. The queue starts (recovery) with `startTasks`.
 */
export function tasksModule(app: FastifyInstance, run: RunJob = runJob): TaskQueue {
  const queue = createTaskQueue({
    db: app.db,
    box: app.secrets,
    dataDir: app.config.dataDir,
    webHost: app.config.webHost,
    publicBase: () => publicBaseUrl(app),
    maxParallelTasks: app.config.maxParallelTasks,
    localExecution: app.config.localExecution,
    runnerTimeoutSeconds: app.config.runnerTimeoutSeconds,
    log: app.log,
    runJob: run,
    shutdownGraceMs: app.config.taskShutdownGraceMs,
    ...(app.hasDecorator('instance') ? { instanceId: app.instance.id, cluster: app.cluster } : {}),
    ...(app.hasDecorator('metrics') ? { metrics: app.metrics } : {}),
  })
  app.decorate('tasks', queue)
  tasksRoutes(app, queue)
  app.addHook('preClose', async () => {
    await queue.shutdown()
  })
  return queue
}

/** Fails tasks interrupted by the previous process and queues waiting ones again. */
export async function startTasks(app: FastifyInstance): Promise<void> {
  await app.tasks.recover()
}
