import { getProjectBackup, restoreProject } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { exportProject } from './backup.service.js'
import { restoreProject as restore } from './restore.service.js'

export function backupRoutes(app: FastifyInstance): void {
  mount(app, getProjectBackup, async ({ db, project }) => exportProject(db, project.projectId))
  mount(app, restoreProject, async ({ db, config, secrets, actor, body, request }) => {
    // The raw body too: the report names what parsing dropped.
    const project = await restore(db, config, secrets, actor, body, request.body)
    // The restored schedules run from now on.
    await app.schedules.reload()
    return project
  })
}
