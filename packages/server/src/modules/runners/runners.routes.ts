import { globalRunnerRoutes, projectRunnerRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import * as runners from './runners.service.js'

/** The runner console: global runners (administrators) and each project's own. */
export function runnersRoutes(app: FastifyInstance): void {
  const g = globalRunnerRoutes
  mount(app, g.list, async ({ db, config }) => runners.listRunners(db, config, null))
  mount(app, g.create, async ({ db, config, body }) =>
    runners.createRunner(db, config, app.tasks, null, body),
  )
  mount(app, g.get, async ({ db, config, params }) =>
    runners.getRunner(db, config, null, params.runner_id),
  )
  mount(app, g.update, async ({ db, params, body }) =>
    runners.updateRunner(db, app.tasks, null, params.runner_id, body),
  )
  mount(app, g.updateByPost, async ({ db, params, body }) =>
    runners.updateRunner(db, app.tasks, null, params.runner_id, body),
  )
  mount(app, g.setActive, async ({ db, params, body }) =>
    runners.setRunnerActive(db, app.tasks, null, params.runner_id, body.active),
  )
  mount(app, g.delete, async ({ db, params }) =>
    runners.deleteRunner(db, app.tasks, null, params.runner_id),
  )

  const p = projectRunnerRoutes
  mount(app, p.list, async ({ db, config, project }) =>
    runners.listRunners(db, config, project.projectId),
  )
  mount(app, p.create, async ({ db, config, project, body }) =>
    runners.createRunner(db, config, app.tasks, project.projectId, body),
  )
  mount(app, p.get, async ({ db, config, project, params }) =>
    runners.getRunner(db, config, project.projectId, params.runner_id),
  )
  mount(app, p.update, async ({ db, project, params, body }) =>
    runners.updateRunner(db, app.tasks, project.projectId, params.runner_id, body),
  )
  mount(app, p.updateByPost, async ({ db, project, params, body }) =>
    runners.updateRunner(db, app.tasks, project.projectId, params.runner_id, body),
  )
  mount(app, p.setActive, async ({ db, project, params, body }) =>
    runners.setRunnerActive(db, app.tasks, project.projectId, params.runner_id, body.active),
  )
  mount(app, p.delete, async ({ db, project, params }) =>
    runners.deleteRunner(db, app.tasks, project.projectId, params.runner_id),
  )
}
