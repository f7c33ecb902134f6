import type { LogSearchMatch, ProjectLogSearchMatch } from '@flagman/contract'
import type { Database } from '@flagman/db'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { projectTaskFilter } from './project-filter.js'
import { fts5Phrase, likePattern, trigramSearchable } from './search-text.js'
import { SEARCH_ROW_BUDGET, type LogSearcher } from './search-types.js'
import { indexedThrough } from './sqlite-indexer.js'

/*
 * SQLite: lines up to the indexer's mark are found in the FTS5 trigram table, the newer ones
 * (and every line, for texts under three characters, which trigrams can not find) by a scan
 * that reads at most SEARCH_ROW_BUDGET lines. SQLite answers in the server's own thread, so
 * the budget, not a timeout, is what keeps a search short.
 */

const literally = (text: string) => sql`${likePattern(text)} escape '!'`

const PROJECT_COLUMNS = sql`o.id, coalesce(o.line, o.id) as line, o.time, o.output,
  o.task_id, t.template_id, tp.name as template_name, t.status as task_status,
  t.created as task_created`

/** Whether a budget-limited row source holds as many rows as the budget allows. */
async function budgetSpent(db: Kysely<Database>, rows: RawBuilder<unknown>): Promise<boolean> {
  const read = await sql<{ n: number }>`select count(*) as n from (${rows})`.execute(db)
  return Number(read.rows[0]?.n ?? 0) >= SEARCH_ROW_BUDGET
}

/** Whether the task has more lines than one search may scan (an index probe). */
async function longerThanBudget(db: Kysely<Database>, taskId: number): Promise<boolean> {
  const beyond = await sql<{ id: number }>`select id from task_output where task_id = ${taskId}
    order by id limit 1 offset ${SEARCH_ROW_BUDGET}`.execute(db)
  return beyond.rows.length > 0
}

export function sqliteSearcher(db: Kysely<Database>): LogSearcher {
  return {
    async searchTask({ taskId, text, limit }) {
      const mark = await indexedThrough(db)
      const wanted = limit + 1
      const found: LogSearchMatch[] = []
      let timedOut = false
      // A log the row budget covers is scanned whole: cheaper than intersecting the index's
      // long lists of common trigrams, which hold every task's lines.
      const indexed = trigramSearchable(text) && (await longerThanBudget(db, taskId)) ? mark : 0
      if (indexed > 0) {
        // The task's own id range keeps the index walk to its lines.
        const range = await sql<{ low: number | null; high: number | null }>`
          select min(id) as low, max(id) as high from task_output
          where task_id = ${taskId} and id <= ${indexed}`.execute(db)
        const { low, high } = range.rows[0] ?? { low: null, high: null }
        if (low !== null && high !== null) {
          const candidates = sql`select rowid as id from task_output_fts
            where task_output_fts match ${fts5Phrase(text)} and rowid between ${low} and ${high}
            order by rowid limit ${SEARCH_ROW_BUDGET}`
          const rows = await sql<LogSearchMatch>`
            with candidate as (${candidates})
            select o.id, coalesce(o.line, o.id) as line, o.time, o.output
            from candidate c join task_output o on o.id = c.id
            where o.task_id = ${taskId}
            order by c.id limit ${wanted}`.execute(db)
          found.push(...rows.rows)
          timedOut = found.length < wanted && (await budgetSpent(db, candidates))
        }
      }
      if (found.length < wanted && !timedOut) {
        const lines = sql`select id, line, time, output from task_output
          where task_id = ${taskId} and id > ${indexed} order by id limit ${SEARCH_ROW_BUDGET}`
        const scanned = await sql<LogSearchMatch>`
          with line as (${lines})
          select id, coalesce(line, id) as line, time, output
          from line where output like ${literally(text)}
          order by id limit ${wanted - found.length}`.execute(db)
        found.push(...scanned.rows)
        timedOut = found.length < wanted && (await budgetSpent(db, lines))
      }
      return { matches: found, timedOut }
    },

    async searchProject(search) {
      const mark = await indexedThrough(db)
      const wanted = search.limit + 1
      const indexed = trigramSearchable(search.text) ? mark : 0
      // Newest first: the lines past the mark, then the indexed ones.
      // The newest lines past the mark, at most a budget of them. CROSS JOIN keeps SQLite
      // walking task_output's ids downwards rather than each of the project's tasks' lines.
      const newest = await sql<{
        id: number | null
      }>`select max(id) as id from task_output`.execute(db)
      const low = Math.max(indexed, Number(newest.rows[0]?.id ?? 0) - SEARCH_ROW_BUDGET)
      const tail = await sql<ProjectLogSearchMatch>`
        select ${PROJECT_COLUMNS}
        from task_output o cross join task t on t.id = o.task_id
          cross join template tp on tp.id = t.template_id
        where o.id > ${low} and ${projectTaskFilter(search)}
          and o.output like ${literally(search.text)}
        order by o.id desc limit ${wanted}`.execute(db)
      const found = [...tail.rows]
      let timedOut = found.length < wanted && low > indexed
      if (indexed > 0 && found.length < wanted && !timedOut) {
        const candidates = sql`select rowid as id from task_output_fts
          where task_output_fts match ${fts5Phrase(search.text)} and rowid <= ${indexed}
          order by rowid desc limit ${SEARCH_ROW_BUDGET}`
        const rows = await sql<ProjectLogSearchMatch>`
          with candidate as (${candidates})
          select ${PROJECT_COLUMNS}
          from candidate c cross join task_output o on o.id = c.id
            cross join task t on t.id = o.task_id cross join template tp on tp.id = t.template_id
          where ${projectTaskFilter(search)}
          order by c.id desc limit ${wanted - found.length}`.execute(db)
        found.push(...rows.rows)
        timedOut = found.length < wanted && (await budgetSpent(db, candidates))
      }
      return { matches: found, timedOut }
    },
  }
}
