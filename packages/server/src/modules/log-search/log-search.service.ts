import type {
  ProjectLogSearchQuery,
  ProjectLogSearchResult,
  TaskLogSearchQuery,
  TaskLogSearchResult,
} from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { z } from 'zod'
import { NotFoundError } from '../../platform/errors.js'
import { mysqlSearcher } from './mysql-searcher.js'
import { postgresSearcher } from './postgres-searcher.js'
import type { Found, LogSearcher } from './search-types.js'
import { sqliteSearcher } from './sqlite-searcher.js'

type TaskQuery = z.output<typeof TaskLogSearchQuery>
type ProjectQuery = z.output<typeof ProjectLogSearchQuery>

const DEFAULT_TASK_LIMIT = 100
const DEFAULT_PROJECT_LIMIT = 50

export function searcherFor(db: Db): LogSearcher {
  if (db.dialect === 'sqlite') return sqliteSearcher(db.kysely)
  if (db.dialect === 'postgres') return postgresSearcher(db.kysely)
  return mysqlSearcher(db.kysely)
}

/** Cuts what a search found (limit + 1 at most) to the limit, saying whether it cut. */
function answer<M>(found: Found<M>, limit: number) {
  return {
    matches: found.matches.slice(0, limit),
    truncated: found.matches.length > limit,
    timed_out: found.timedOut,
  }
}

export async function searchTaskLog(
  db: Db,
  searcher: LogSearcher,
  projectId: number,
  taskId: number,
  query: TaskQuery,
): Promise<TaskLogSearchResult> {
  const task = await db.kysely
    .selectFrom('task')
    .select('id')
    .where('project_id', '=', projectId)
    .where('id', '=', taskId)
    .executeTakeFirst()
  if (!task) throw new NotFoundError('Task')
  const limit = query.limit ?? DEFAULT_TASK_LIMIT
  const found = await searcher.searchTask({ taskId, text: query.q, limit })
  return { task_id: taskId, ...answer(found, limit) }
}

export async function searchProjectLogs(
  searcher: LogSearcher,
  projectId: number,
  query: ProjectQuery,
): Promise<ProjectLogSearchResult> {
  const limit = query.limit ?? DEFAULT_PROJECT_LIMIT
  const found = await searcher.searchProject({
    projectId,
    text: query.q,
    limit,
    templateId: query.template_id,
    from: query.from,
    to: query.to,
  })
  return answer(found, limit)
}
