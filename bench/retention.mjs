#!/usr/bin/env node
// Retention on a large history (PostgreSQL, a scratch database created and dropped here):
// BENCH_TASKS (20,000) finished tasks of BENCH_LINES (50) log lines each, all older than the
// project's limit, plus as many young ones that stay. Prints how long the background job
// takes to remove the old ones (tasks/s, lines/s) and the latency of the API while it works,
// beside the same reads on the idle server just before.
//
// Usage (after `npm run build`): node bench/retention.mjs

import { performance } from 'node:perf_hooks'
import pg from 'pg'

process.env.BENCH_DB = 'postgres'
const { scratchDatabase } = await import('./scratch-db.mjs')
const { benchProject, benchRepository, median, percentile, signIn, spawnServer } =
  await import('./task-common.mjs')

const TASKS = Number(process.env.BENCH_TASKS ?? 20_000) || 20_000
const LINES = Number(process.env.BENCH_LINES ?? 50) || 50
const KEEP_DAYS = 30
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const repo = benchRepository({ 'noop.sh': 'true\n' })
const database = await scratchDatabase('flagman_bench_retention')
// The sweep is started by hand below (a short interval once the history is in place).
const server = await spawnServer({
  FLAGMAN_DB: database.url,
  FLAGMAN_RETENTION_INTERVAL_SECONDS: '1',
})
const db = new pg.Client({ connectionString: database.url })
await db.connect()
try {
  const cookie = await signIn(server.url)
  const { api, project, template } = await benchProject(server.url, cookie, repo, 'Retention bench')
  const templateId = await template('noop.sh')

  // Old tasks first (ids grow with age), then as many young ones; every one with its log.
  const fill = async (count, ageDays) => {
    const { rows } = await db.query(
      `INSERT INTO task (project_id, template_id, status, debug, dry_run, diff, created, start, "end")
       SELECT $1, $2, 'success', 0, 0, 0, t, t, t
       FROM (SELECT to_char((now() - make_interval(days => $4) + make_interval(secs => g))
                    AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t
             FROM generate_series(1, $3::int) g) s
       RETURNING id`,
      [project.id, templateId, count, ageDays],
    )
    const ids = rows.map((r) => r.id)
    for (let i = 0; i < ids.length; i += 2_000) {
      await db.query(
        `INSERT INTO task_output (task_id, line, time, output)
         SELECT id, l, '2024-01-01T00:00:00.000Z', 'bench line ' || l
         FROM unnest($1::int[]) id CROSS JOIN generate_series(1, $2::int) l`,
        [ids.slice(i, i + 2_000), LINES],
      )
    }
    return ids
  }
  const t0 = performance.now()
  const old = await fill(TASKS, 400)
  await fill(TASKS, 1)
  await db.query('ANALYZE task; ANALYZE task_output')
  console.log(
    `filled ${2 * TASKS} tasks and ${2 * TASKS * LINES} log lines in ` +
      `${((performance.now() - t0) / 1000).toFixed(1)} s`,
  )

  const reads = [
    '/api/projects',
    `/api/project/${project.id}/templates`,
    `/api/project/${project.id}/tasks?limit=50`,
    `/api/project/${project.id}/tasks/${old.at(-1) + 1}/output?limit=100`,
  ]
  const measure = async (until) => {
    const latencies = []
    for (let i = 0; until(i); i += 1) {
      const start = performance.now()
      await api('GET', reads[i % reads.length])
      latencies.push(performance.now() - start)
    }
    return latencies
  }
  const idle = await measure((i) => i < 400)

  const remainingOld = async () =>
    (await db.query('SELECT count(*)::int AS n FROM task WHERE id = ANY($1)', [old])).rows[0].n
  await api('PUT', `/api/project/${project.id}`, {
    id: project.id,
    name: project.name,
    task_retention_days: KEEP_DAYS,
  })
  const sweepStart = performance.now()
  let done = false
  const watcher = (async () => {
    while ((await remainingOld()) > 0) await sleep(50)
    done = true
  })()
  const during = await measure(() => !done)
  await watcher
  const seconds = (performance.now() - sweepStart) / 1000
  const left = await db.query('SELECT count(*)::int AS n FROM task WHERE project_id = $1', [
    project.id,
  ])
  const show = (values) =>
    `median ${median(values).toFixed(1)} ms, p99 ${percentile(values, 99).toFixed(1)} ms (${values.length} requests)`
  console.log(
    `retention removed ${TASKS} tasks and ${TASKS * LINES} log lines in ${seconds.toFixed(1)} s ` +
      `(${(TASKS / seconds).toFixed(0)} tasks/s, ${((TASKS * LINES) / seconds).toFixed(0)} lines/s); ` +
      `${left.rows[0].n} young tasks kept`,
  )
  console.log(`API reads, idle: ${show(idle)}`)
  console.log(`API reads, while retention works: ${show(during)}`)
} finally {
  await db.end()
  await server.stop()
  await database.drop()
  const { rmSync } = await import('node:fs')
  rmSync(repo, { recursive: true, force: true })
}
