import { logSearchRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { searcherFor, searchProjectLogs, searchTaskLog } from './log-search.service.js'
import { startIndexer, type Indexer } from './background-indexer.js'
import { mysqlBatchIndexer } from './mysql-indexer.js'
import { sqliteBatchIndexer } from './sqlite-indexer.js'

/** Log search routes, and on SQLite and MariaDB/MySQL the background indexer they rely on. */
export function logSearchModule(app: FastifyInstance): void {
  const searcher = searcherFor(app.db)
  mount(app, logSearchRoutes.task, async ({ db, project, params, query }) =>
    searchTaskLog(db, searcher, project.projectId, params.task_id, query),
  )
  mount(app, logSearchRoutes.project, async ({ project, query }) =>
    searchProjectLogs(searcher, project.projectId, query),
  )
  const db = app.db
  // PostgreSQL's trigram index is kept by the database itself.
  const batches =
    db.dialect === 'sqlite'
      ? sqliteBatchIndexer(db.kysely)
      : db.dialect === 'mysql'
        ? mysqlBatchIndexer(db.kysely)
        : null
  if (batches !== null) {
    let indexer: Indexer | undefined
    app.addHook('onReady', async () => {
      indexer = startIndexer(batches, {
        logsStoredWithin: (ms) => app.tasks.logs.storedWithin(ms),
        onError: (error) =>
          app.log.warn({ err: error }, 'Indexing task logs for search failed; retrying'),
      })
    })
    app.addHook('onClose', async () => indexer?.stop())
  }
}
