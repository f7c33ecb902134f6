import type { LogSearchMatch, ProjectLogSearchMatch } from '@flagman/contract'
import type { Database } from '@flagman/db'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { projectTaskFilter } from './project-filter.js'
import { fulltextTerms } from './search-text.js'
import { SEARCH_TIME_BUDGET_MS, type Found, type LogSearcher } from './search-types.js'

/*
 * MariaDB/MySQL: within one task, its lines are scanned (task_id index) for the literal text;
 * across tasks, the FULLTEXT index of task_output_search (lines copied from ended tasks, see
 * mysql-indexer.ts) finds the lines holding the text's words and LOCATE keeps those holding
 * the text itself; lines not copied yet are scanned. The columns' collation (utf8mb4_unicode_ci) makes both
 * ignore case. Each statement carries its own time limit: MariaDB's SET STATEMENT
 * max_statement_time, MySQL's MAX_EXECUTION_TIME hint.
 */

/** MariaDB: "Query execution was interrupted (max_statement_time exceeded)". */
const MARIADB_TIMEOUT = 1969
/** MySQL: "Query execution was interrupted, maximum statement execution time exceeded". */
const MYSQL_TIMEOUT = 3024
/** How many of the newest lines are read first, for a common text. */
const NEWEST_LINES = 5_000

function isTimeout(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('errno' in error)) return false
  const errno = (error as { errno: unknown }).errno
  return errno === MARIADB_TIMEOUT || errno === MYSQL_TIMEOUT
}

async function isMariaDb(db: Kysely<Database>): Promise<boolean> {
  const found = await sql<{ v: string }>`select version() as v`.execute(db)
  return /mariadb/i.test(found.rows[0]?.v ?? '')
}

export function mysqlSearcher(db: Kysely<Database>): LogSearcher {
  let mariadb: Promise<boolean> | undefined
  /** Runs `select …` (given without its `select`) under the time budget. */
  const bounded = async <M>(rest: RawBuilder<unknown>): Promise<Found<M>> => {
    const query = (await (mariadb ??= isMariaDb(db)))
      ? sql<M>`set statement max_statement_time = ${sql.raw(String(SEARCH_TIME_BUDGET_MS / 1000))}
          for select ${rest}`
      : sql<M>`select /*+ MAX_EXECUTION_TIME(${sql.raw(String(SEARCH_TIME_BUDGET_MS))}) */ ${rest}`
    try {
      return { matches: (await query.execute(db)).rows, timedOut: false }
    } catch (error) {
      if (isTimeout(error)) return { matches: [], timedOut: true }
      throw error
    }
  }
  return {
    searchTask({ taskId, text, limit }) {
      return bounded<LogSearchMatch>(sql`o.id, coalesce(o.line, o.id) as line, o.time, o.output
        from task_output o where o.task_id = ${taskId} and locate(${text}, o.output) > 0
        order by o.id limit ${limit + 1}`)
    },
    async searchProject(search) {
      const columns = (table: 'o' | 's') =>
        sql.raw(`${table}.id, coalesce(${table}.line, ${table}.id) as line, ${table}.time,
          ${table}.output, ${table}.task_id, t.template_id, tp.name as template_name,
          t.status as task_status, t.created as task_created`)
      /** Lines of task_output itself, `lines` saying which. */
      const scan = (lines: RawBuilder<unknown>) =>
        bounded<ProjectLogSearchMatch>(sql`${columns('o')}
          from task_output o join task t on t.id = o.task_id
            join template tp on tp.id = t.template_id
          where ${projectTaskFilter(search)} and ${lines}
            and locate(${search.text}, o.output) > 0
          order by o.id desc limit ${search.limit + 1}`)
      // A common text fills the answer from the newest lines alone, where the FULLTEXT index
      // would hand over every line holding its words first.
      // The bound is read first: MariaDB does not range-scan on a subquery's value.
      const top = await sql<{ id: number | null }>`select max(id) as id from task_output`.execute(
        db,
      )
      const newest = await scan(sql`o.id > ${Number(top.rows[0]?.id ?? 0) - NEWEST_LINES}`)
      if (newest.timedOut || newest.matches.length > search.limit) return newest
      const terms = fulltextTerms(search.text)
      if (terms === null) return scan(sql`1 = 1`)
      // The copied lines through their FULLTEXT index, the rest (lines of tasks not copied
      // yet, or stored after the copy) scanned, each task from where its copy ends.
      const [indexed, rest] = await Promise.all([
        bounded<ProjectLogSearchMatch>(sql`${columns('s')}
          from task_output_search s join task t on t.id = s.task_id
            join template tp on tp.id = t.template_id
          where ${projectTaskFilter(search)}
            and match (s.output) against (${terms} in boolean mode)
            and locate(${search.text}, s.output) > 0
          order by s.id desc limit ${search.limit + 1}`),
        scan(sql`o.id > t.log_indexed_through`),
      ])
      const matches = [...indexed.matches, ...rest.matches]
        .sort((a, b) => b.id - a.id)
        .slice(0, search.limit + 1)
      return { matches, timedOut: indexed.timedOut || rest.timedOut }
    },
  }
}
