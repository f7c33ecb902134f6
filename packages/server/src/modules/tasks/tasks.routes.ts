import { activeTaskRoutes, taskRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { NotFoundError } from '../../platform/errors.js'
import type { TaskQueue } from './task-queue.js'
import { findTaskProjectId } from './tasks.repository.js'
import * as tasks from './tasks.service.js'

/** Tasks a history list gives when no `limit` is asked for. */
const HISTORY_LIMIT = 1000

export function tasksRoutes(app: FastifyInstance, queue: TaskQueue): void {
  const r = taskRoutes
  mount(app, r.create, async ({ db, actor, project, body }) =>
    tasks.createTask(
      db,
      queue,
      { actor, permissions: project.permissions },
      project.projectId,
      body,
    ),
  )
  mount(
    app,
    r.list,
    async ({ db, project, query }) =>
      tasks.listTasks(db, project.projectId, {
        limit: query.limit ?? HISTORY_LIMIT,
        beforeId: query.before_id,
      }),
    { reuse: 'data' },
  )
  mount(
    app,
    r.last,
    async ({ db, project, query }) =>
      tasks.listTasks(db, project.projectId, {
        limit: tasks.parseLimit(query.limit),
        beforeId: query.before_id,
      }),
    { reuse: 'data' },
  )
  mount(app, r.get, async ({ db, project, params }) =>
    tasks.getTask(db, project.projectId, params.task_id),
  )
  mount(
    app,
    r.output,
    async ({ db, project, params, query }) =>
      tasks.taskOutput(db, project.projectId, params.task_id, query),
    { reuse: 'data-and-logs' },
  )
  mount(
    app,
    r.outputCount,
    async ({ db, project, params }) => tasks.taskOutputCount(db, project.projectId, params.task_id),
    { reuse: 'data-and-logs' },
  )
  mount(app, r.rawOutput, async ({ db, project, params, reply }) => {
    const lines = await tasks.taskOutput(db, project.projectId, params.task_id)
    reply.type('text/plain; charset=utf-8')
    reply.header('Content-Disposition', `attachment; filename="task-${params.task_id}.log"`)
    return reply.send(lines.map((line) => `${line.output}\n`).join(''))
  })
  mount(app, r.stop, async ({ db, project, params, body }) => {
    await tasks.getTask(db, project.projectId, params.task_id)
    await queue.stop(project.projectId, params.task_id, body.force)
  })
  mount(app, r.confirm, async ({ db, project, params }) => {
    await tasks.getTask(db, project.projectId, params.task_id)
    await queue.confirm(project.projectId, params.task_id)
  })
  mount(app, r.reject, async ({ db, project, params }) => {
    await tasks.getTask(db, project.projectId, params.task_id)
    await queue.reject(project.projectId, params.task_id)
  })
  mount(app, r.remove, async ({ db, actor, project, params }) =>
    tasks.deleteTask(db, queue, actor, project.projectId, params.task_id),
  )
  mount(
    app,
    r.templateTasks,
    async ({ db, project, params, query }) => {
      await tasks.assertTemplate(db, project.projectId, params.template_id)
      return tasks.listTasks(db, project.projectId, {
        limit: query.limit ?? HISTORY_LIMIT,
        templateId: params.template_id,
        status: query.status,
        beforeId: query.before_id,
      })
    },
    { reuse: 'data' },
  )
  mount(
    app,
    r.templateLastTasks,
    async ({ db, project, params, query }) => {
      await tasks.assertTemplate(db, project.projectId, params.template_id)
      return tasks.listTasks(db, project.projectId, {
        limit: tasks.parseLimit(query.limit),
        templateId: params.template_id,
        beforeId: query.before_id,
      })
    },
    { reuse: 'data' },
  )
  mount(app, r.templateStats, async ({ db, project, params, query }) =>
    tasks.templateStats(db, project.projectId, params.template_id, query),
  )

  const a = activeTaskRoutes
  mount(app, a.list, async () => queue.listActive())
  // The answer is the whole active list, as the compatible API gives it, for a task that
  // exists; an unknown task is not found.
  mount(app, a.get, async ({ db, params }) => {
    if ((await findTaskProjectId(db.kysely, params.task_id)) === undefined) {
      throw new NotFoundError('Task')
    }
    return queue.listActive()
  })
  mount(app, a.stop, async ({ db, params }) => {
    const projectId = await findTaskProjectId(db.kysely, params.task_id)
    if (projectId === undefined) throw new NotFoundError('Task')
    await queue.stop(projectId, params.task_id, false)
  })
}
