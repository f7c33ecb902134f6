import { logSearchRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { searcherFor, searchProjectLogs, searchTaskLog } from './log-search.service.js'
import { startSqliteIndexer } from './sqlite-indexer.js'

/** Log search routes, and on SQLite the background indexer they rely on. */
export function logSearchModule(app: FastifyInstance): void {
  const searcher = searcherFor(app.db)
  mount(app, logSearchRoutes.task, async ({ db, project, params, query }) =>
    searchTaskLog(db, searcher, project.projectId, params.task_id, query),
  )
  mount(app, logSearchRoutes.project, async ({ project, query }) =>
    searchProjectLogs(searcher, project.projectId, query),
  )
  if (app.db.dialect === 'sqlite') {
    let indexer: ReturnType<typeof startSqliteIndexer> | undefined
    app.addHook('onReady', async () => {
      indexer = startSqliteIndexer(app.db.kysely, (error) =>
        app.log.warn({ err: error }, 'Indexing task logs for search failed; retrying'),
      )
    })
    app.addHook('onClose', async () => indexer?.stop())
  }
}
