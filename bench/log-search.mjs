#!/usr/bin/env node
// Log search latency on a big log table. Starts the server on a scratch database, fills it
// directly with BENCH_TASKS tasks of BENCH_LINES_PER_TASK lines each (default 5,000 × 1,000 =
// 5,000,000 lines), then times the search routes over HTTP (p50/p99 of BENCH_RUNS calls each)
// beside the floor of the same run: reading one task (GET /tasks/:id), the cheapest project
// read. On SQLite it times the searches once before the background indexer has caught up
// (lines past its mark are scanned within a row budget) and once after, and prints the
// indexer's rate. On PostgreSQL and MariaDB it also prints what the search index costs an
// insert: BENCH_INSERT_ROWS rows inserted in batches into a copy of task_output with and
// without the index.
//
// Usage (after `npm run build`):
//   node bench/log-search.mjs                    SQLite (a temporary data folder)
//   BENCH_DB=postgres node bench/log-search.mjs  a scratch database bench_search_<pid>
//   BENCH_DB=mysql node bench/log-search.mjs     the same on MariaDB/MySQL
// FLAGMAN_TEST_POSTGRES_URL / FLAGMAN_TEST_MYSQL_URL name the servers (an admin connection).

import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import Sqlite from 'better-sqlite3'
import mysql from 'mysql2/promise'
import pg from 'pg'
import { percentile, startBench } from './task-common.mjs'
import { BENCH_DB as DB, scratchDatabase } from './scratch-db.mjs'

const TASKS = Number(process.env.BENCH_TASKS ?? 5000) || 5000
const LINES_PER_TASK = Number(process.env.BENCH_LINES_PER_TASK ?? 1000) || 1000
const RUNS = Number(process.env.BENCH_RUNS ?? 30) || 30
const INSERT_ROWS = Number(process.env.BENCH_INSERT_ROWS ?? 200_000) || 200_000
const RARE_EVERY = 250_000
const ms = (value) => `${value.toFixed(1)} ms`

/** A log line like a busy task prints; a rare marker every RARE_EVERY lines. */
const lineText = (n) =>
  n % RARE_EVERY === 0
    ? `deploy step ${n}: needle-rare-marker found, 100% done`
    : `[worker-${n % 17}] processed item ${n} in ${n % 997} ms status=ok path=/srv/app/${n % 101}`

/** Tasks created one minute apart, ending now. */
const createdAt = (i) => new Date(Date.now() - (TASKS - i) * 60_000).toISOString()

/** Fills the database through its own driver; answers a way to run further SQL. */
async function fill(bench, url) {
  const projectId = bench.project.id
  const templateId = await bench.template('none.sh')
  const total = TASKS * LINES_PER_TASK
  const started = performance.now()
  if (DB === 'sqlite') {
    const db = new Sqlite(join(bench.dataDir, 'flagman.sqlite'))
    db.pragma('busy_timeout = 30000')
    const task = db.prepare(
      `insert into task (project_id, template_id, status, created, debug, dry_run, diff)
       values (?, ?, 'success', ?, 0, 0, 0)`,
    )
    const line = db.prepare(
      'insert into task_output (task_id, time, output, line) values (?, ?, ?, ?)',
    )
    const fillTask = db.transaction((i) => {
      const id = Number(task.run(projectId, templateId, createdAt(i)).lastInsertRowid)
      const time = createdAt(i)
      for (let l = 1; l <= LINES_PER_TASK; l += 1) {
        line.run(id, time, lineText(i * LINES_PER_TASK + l), l)
      }
      return id
    })
    let firstTask = 0
    for (let i = 0; i < TASKS; i += 1) {
      const id = fillTask(i)
      if (i === 0) firstTask = id
    }
    console.log(`filled ${total.toLocaleString('en')} lines in ${ms(performance.now() - started)}`)
    return { db, templateId, firstTask, close: () => db.close() }
  }
  if (DB === 'postgres') {
    const db = new pg.Client({ connectionString: url })
    await db.connect()
    const first = await db.query(
      `insert into task (project_id, template_id, status, created, debug, dry_run, diff)
       select $1, $2, 'success',
         to_char((now() - (($3 - i) * interval '1 minute')) at time zone 'UTC',
           'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 0, 0, 0
       from generate_series(0, $3 - 1) i returning id`,
      [projectId, templateId, TASKS],
    )
    const low = first.rows[0].id
    await db.query(
      `insert into task_output (task_id, time, output, line)
       select t.id, t.created, case when n % ${RARE_EVERY} = 0
           then 'deploy step ' || n || ': needle-rare-marker found, 100% done'
           else '[worker-' || (n % 17) || '] processed item ' || n || ' in ' || (n % 997)
             || ' ms status=ok path=/srv/app/' || (n % 101) end,
         l
       from task t, generate_series(1, $1) l, lateral (select (t.id - $2) * $1 + l as n) x
       where t.project_id = $3 order by t.id, l`,
      [LINES_PER_TASK, low, projectId],
    )
    await db.query('vacuum analyze task_output')
    console.log(`filled ${total.toLocaleString('en')} lines in ${ms(performance.now() - started)}`)
    return { db, templateId, firstTask: low, close: () => db.end() }
  }
  const db = await mysql.createConnection(url)
  for (let i = 0; i < TASKS; i += 1) {
    await db.query(
      `insert into task (project_id, template_id, status, created, debug, dry_run, diff)
       values (?, ?, 'success', ?, 0, 0, 0)`,
      [projectId, templateId, createdAt(i)],
    )
  }
  const [[{ low }]] = await db.query('select min(id) as low from task where project_id = ?', [
    projectId,
  ])
  const BATCH = 2000
  for (let i = 0; i < TASKS; i += 1) {
    for (let l = 1; l <= LINES_PER_TASK; l += BATCH) {
      const rows = []
      for (let k = l; k < Math.min(LINES_PER_TASK + 1, l + BATCH); k += 1) {
        rows.push([low + i, createdAt(i), lineText(i * LINES_PER_TASK + k), k])
      }
      await db.query('insert into task_output (task_id, time, output, line) values ?', [rows])
    }
  }
  await db.query('analyze table task_output')
  console.log(`filled ${total.toLocaleString('en')} lines in ${ms(performance.now() - started)}`)
  return { db, templateId, firstTask: low, close: () => db.end() }
}

/** p50 and p99 of RUNS calls of `path`; the last answer's counts. */
async function timeRoute(bench, path) {
  const times = []
  let last
  for (let i = 0; i < RUNS; i += 1) {
    const started = performance.now()
    const res = await fetch(`${bench.url}${path}`, { headers: { Cookie: bench.cookie } })
    last = await res.json()
    times.push(performance.now() - started)
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(last)}`)
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), body: last }
}

async function measureSearches(bench, filled, label) {
  const p = `/api/project/${bench.project.id}`
  const middle = filled.firstTask + Math.floor(TASKS / 2)
  const floor = await timeRoute(bench, `${p}/tasks/${middle}`)
  console.log(`\n${label}`)
  console.log(
    `  floor  GET one task                      p50 ${ms(floor.p50)}  p99 ${ms(floor.p99)}`,
  )
  const cases = [
    ['one task, common word', `${p}/tasks/${middle}/output/search?q=processed&limit=100`],
    ['one task, absent text', `${p}/tasks/${middle}/output/search?q=zzqx-absent`],
    ['one task, 2 characters', `${p}/tasks/${middle}/output/search?q=ms`],
    ['project, rare word', `${p}/output/search?q=needle-rare-marker`],
    ['project, common word', `${p}/output/search?q=processed&limit=50`],
    ['project, literal 100%', `${p}/output/search?q=100%25`],
    ['project, absent text', `${p}/output/search?q=zzqx-absent`],
    [
      'project, template, last day',
      `${p}/output/search?q=status%3Dok&template_id=${filled.templateId}&from=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`,
    ],
  ]
  for (const [name, path] of cases) {
    const { p50, p99, body } = await timeRoute(bench, path)
    const flags = `${body.matches.length} matches${body.truncated ? ', truncated' : ''}${body.timed_out ? ', timed out' : ''}`
    console.log(
      `  ${name.padEnd(38)} p50 ${ms(p50).padStart(9)}  p99 ${ms(p99).padStart(9)}  (${(p50 / floor.p50).toFixed(1)}× floor; ${flags})`,
    )
  }
}

/** Waits for SQLite's background indexer to reach the newest line; prints its rate. */
async function waitForIndexer(filled) {
  const newest = filled.db.prepare('select max(id) as id from task_output').get().id
  const mark = () =>
    filled.db.prepare('select indexed_through as n from task_output_search_progress').get().n
  const startMark = mark()
  const started = performance.now()
  while (mark() < newest) await new Promise((r) => setTimeout(r, 500))
  const seconds = (performance.now() - started) / 1000
  const lines = newest - startMark
  console.log(
    `\nindexer caught up: ${lines.toLocaleString('en')} lines in ${seconds.toFixed(1)} s (${Math.round(lines / seconds).toLocaleString('en')} lines/s)`,
  )
}

/** Batched inserts into copies of task_output with and without the search index. */
async function insertCost(filled) {
  const batch = 1000
  const run = async (table) => {
    const started = performance.now()
    for (let first = 0; first < INSERT_ROWS; first += batch) {
      const params = []
      const tuples = []
      for (let i = 0; i < batch; i += 1) {
        const n = first + i
        if (DB === 'postgres') {
          const b = i * 4
          tuples.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4})`)
        } else tuples.push('(?, ?, ?, ?)')
        params.push(1, '2026-01-01T00:00:00.000Z', lineText(n + 1), n + 1)
      }
      await filled.db.query(
        `insert into ${table} (task_id, time, output, line) values ${tuples.join(', ')}`,
        params,
      )
    }
    return performance.now() - started
  }
  const create = async (table, indexed) => {
    if (DB === 'postgres') {
      await filled.db.query(`create table ${table} (id serial primary key, task_id integer not null,
        time varchar(32) not null, output text not null, line integer)`)
      if (indexed) {
        await filled.db.query(
          `create index on ${table} using gin (output gin_trgm_ops) with (fastupdate = on)`,
        )
      }
    } else {
      await filled.db.query(`create table ${table} (id integer primary key auto_increment,
        task_id integer not null, time varchar(32) not null, output mediumtext not null,
        line integer ${indexed ? ', fulltext (output)' : ''})
        default character set utf8mb4 collate utf8mb4_unicode_ci`)
    }
  }
  await create('bench_plain', false)
  await create('bench_indexed', true)
  const plain = await run('bench_plain')
  const indexed = await run('bench_indexed')
  const perSecond = (t) => `${Math.round(INSERT_ROWS / (t / 1000)).toLocaleString('en')} rows/s`
  console.log(
    `\ninsert cost of the search index (${INSERT_ROWS.toLocaleString('en')} rows, batches of ${batch})`,
  )
  console.log(`  without index (floor)  ${perSecond(plain)}`)
  console.log(
    `  with search index      ${perSecond(indexed)}  (${((100 * plain) / indexed).toFixed(0)} % of the floor)`,
  )
}

const scratch = await scratchDatabase('bench_search')
const bench = await startBench(
  { 'none.sh': 'true\n' },
  scratch.url ? { FLAGMAN_DB: scratch.url } : {},
)
let filled
try {
  console.log(
    `log search on ${DB}: ${TASKS} tasks × ${LINES_PER_TASK} lines, ${RUNS} calls per route`,
  )
  filled = await fill(bench, scratch.url)
  if (DB === 'sqlite') {
    await measureSearches(bench, filled, 'before the indexer caught up (scanned within budget)')
    await waitForIndexer(filled)
    await measureSearches(bench, filled, 'indexed')
  } else {
    await measureSearches(bench, filled, 'indexed')
    await insertCost(filled)
  }
} finally {
  await filled?.close()
  await bench.stop()
  await scratch.drop()
}
