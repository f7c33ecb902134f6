import type { LogSearchMatch, ProjectLogSearchMatch } from '@flagman/contract'
import type { Database } from '@flagman/db'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { projectTaskFilter } from './project-filter.js'
import { likePattern } from './search-text.js'
import { SEARCH_TIME_BUDGET_MS, type Found, type LogSearcher } from './search-types.js'

/*
 * PostgreSQL: ILIKE '%text%' served by the pg_trgm GIN index (texts under three characters
 * have no trigram and are scanned). Where pg_trgm could not be installed, the index is a
 * full-text one, and a phrase query on it narrows the lines before the same ILIKE check.
 * Each search runs in its own transaction under a statement timeout.
 */

const QUERY_CANCELED = '57014'
/** Up to this many matching lines in the whole table, a text counts as rare. */
const RARE_TEXT_LINES = 10_000
/** How many of the newest lines are read first, for a common text. */
const NEWEST_LINES = 20_000
/** How many of a log's first lines are read first, for a common text within one task. */
const FIRST_LINES = 20_000

type IndexKind = 'trigram' | 'fulltext' | 'none'

async function indexKind(db: Kysely<Database>): Promise<IndexKind> {
  const found = await sql<{ indexdef: string }>`
    select indexdef from pg_indexes where indexname = 'task_output_output_search_idx'`.execute(db)
  const definition = found.rows[0]?.indexdef ?? ''
  if (definition.includes('gin_trgm_ops')) return 'trigram'
  return definition.includes('to_tsvector') ? 'fulltext' : 'none'
}

function matching(kind: IndexKind, text: string): RawBuilder<unknown> {
  const literal = sql`o.output ilike ${likePattern(text)} escape '!'`
  if (kind !== 'fulltext') return literal
  return sql`to_tsvector('simple', o.output) @@ phraseto_tsquery('simple', ${text}) and ${literal}`
}

function isCanceled(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error
    ? (error as { code: unknown }).code === QUERY_CANCELED
    : false
}

/** Runs a search under the time budget; one that runs out answers nothing, timed out. */
async function bounded<M>(
  db: Kysely<Database>,
  run: (trx: Kysely<Database>) => Promise<M[]>,
): Promise<Found<M>> {
  try {
    const matches = await db.transaction().execute(async (trx) => {
      await sql.raw(`set local statement_timeout = ${SEARCH_TIME_BUDGET_MS}`).execute(trx)
      // A generic plan can not see the pattern, and would not pick the trigram index.
      await sql`set local plan_cache_mode = force_custom_plan`.execute(trx)
      return run(trx)
    })
    return { matches, timedOut: false }
  } catch (error) {
    if (isCanceled(error)) return { matches: [], timedOut: true }
    throw error
  }
}

export function postgresSearcher(db: Kysely<Database>): LogSearcher {
  let kind: Promise<IndexKind> | undefined
  const currentKind = () => (kind ??= indexKind(db))
  return {
    async searchTask({ taskId, text, limit }) {
      const where = matching(await currentKind(), text)
      const wanted = limit + 1
      return bounded(db, async (trx) => {
        // A common text fills the answer from the log's first lines alone, read in order;
        // through the trigram index it would mean merging the long posting lists of common
        // trigrams over every task's lines.
        const first = await sql<LogSearchMatch>`
          select o.id, coalesce(o.line, o.id) as line, o.time, o.output
          from (select id, line, time, output from task_output where task_id = ${taskId}
            order by id limit ${FIRST_LINES}) o
          where ${where} order by o.id limit ${wanted}`.execute(trx)
        if (first.rows.length === wanted) return first.rows
        const rows = await sql<LogSearchMatch>`
          select o.id, coalesce(o.line, o.id) as line, o.time, o.output
          from task_output o where o.task_id = ${taskId} and ${where}
          order by o.id limit ${wanted}`.execute(trx)
        return rows.rows
      })
    },
    async searchProject(search) {
      const where = matching(await currentKind(), search.text)
      const wanted = search.limit + 1
      const select = (lines: RawBuilder<unknown>) => sql<ProjectLogSearchMatch>`
        select o.id, coalesce(o.line, o.id) as line, o.time, o.output, o.task_id,
          t.template_id, tp.name as template_name, t.status as task_status,
          t.created as task_created
        from task_output o join task t on t.id = o.task_id
          join template tp on tp.id = t.template_id
        where ${projectTaskFilter(search)} and ${lines}
        order by o.id desc limit ${wanted}`
      return bounded(db, async (trx) => {
        // A common text fills the answer from the newest lines alone.
        const newest = await select(sql`o.id > (select max(id) from task_output) -
          ${NEWEST_LINES} and ${where}`).execute(trx)
        if (newest.rows.length === wanted) return newest.rows
        // Then the index alone: a rare text's lines are few, and the planner, which can not
        // tell a rare text from a common one, would otherwise walk every line newest first.
        await sql`set local enable_seqscan = off`.execute(trx)
        await sql`set local enable_indexscan = off`.execute(trx)
        const hits = await sql<{ id: number }>`select o.id from task_output o where ${where}
          limit ${RARE_TEXT_LINES}`.execute(trx)
        await sql`set local enable_seqscan = on`.execute(trx)
        await sql`set local enable_indexscan = on`.execute(trx)
        if (hits.rows.length === 0) return []
        const lines =
          hits.rows.length < RARE_TEXT_LINES
            ? sql`o.id = any(${hits.rows.map((row) => row.id)}::int[])`
            : where
        return (await select(lines).execute(trx)).rows
      })
    },
  }
}
