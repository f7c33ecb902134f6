// Latency of the history, activity and log reads on a large database, beside the same reads
// on a nearly empty one (same shape: one project, a few tasks) measured in the same run.
//
//   BENCH_KEEP=1 node bench/million-tasks.mjs          once: fills bench_million
//   node bench/million-latency.mjs                     then: p50/p99 of each read
//
// BENCH_DB_NAME (bench_million): the database filled by million-tasks.mjs. BENCH_REQUESTS
// (200): requests per read, one at a time over a kept-alive connection. FLAGMAN_BIN: another
// build's bin/flagman, to measure it against the same data. Every answer is computed (the
// server's reuse of answers is off unless FLAGMAN_ANSWER_CACHE_MB is set). Prints figures;
// never fails on timing.

import { spawn } from 'node:child_process'
import http from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import {
  BENCH_ADMIN,
  LONG_LOG_MESSAGE,
  databaseExists,
  databaseUrl,
  dropDatabase,
  generate,
} from './million-tasks.mjs'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const NAME = process.env.BENCH_DB_NAME ?? 'bench_million'
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200)
/** The whole million-line log is too heavy to ask for 200 times. */
const WHOLE_LOG_REQUESTS = 3
const GOAL_P99_MS = 50

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

async function startServer(url) {
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-million-latency-'))
  const bin = process.env.FLAGMAN_BIN ?? join(ROOT, 'bin/flagman')
  const child = spawn(process.execPath, [bin, 'server'], {
    env: {
      ...process.env,
      // Each read is computed, as the first read after a write is: answers kept between
      // requests would measure the cache, not the database. FLAGMAN_ANSWER_CACHE_MB=32 to see it.
      FLAGMAN_ANSWER_CACHE_MB: process.env.FLAGMAN_ANSWER_CACHE_MB ?? '0',
      FLAGMAN_DB: url,
      FLAGMAN_DATA_DIR: dataDir,
      FLAGMAN_HOST: '127.0.0.1',
      FLAGMAN_PORT: '0',
      FLAGMAN_LOG_LEVEL: 'warn',
      // Stops at once: no load balancer waits on a test server.
      FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
      FLAGMAN_ADMIN_LOGIN: BENCH_ADMIN.login,
      FLAGMAN_ADMIN_PASSWORD: BENCH_ADMIN.password,
    },
    stdio: 'pipe',
  })
  let log = ''
  child.stderr.on('data', (c) => (log += c))
  // A first start on the large database also runs pending migrations, which may build indexes
  // over millions of rows: give it time.
  const base = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGTERM')
      reject(new Error(`server did not start within 30 minutes\n${log}`))
    }, 30 * 60_000)
    child.stdout.on('data', (c) => {
      log += c
      const m = /is listening on (http:\/\/\S+)/.exec(log)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.on('exit', () => reject(new Error(`server exited\n${log}`)))
  })
  return {
    base,
    async stop() {
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

async function signIn(base) {
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: BENCH_ADMIN.login, password: BENCH_ADMIN.password }),
  })
  if (res.status >= 400) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return /(?<!\w)semaphore=[^;]+/.exec(res.headers.get('set-cookie') ?? '')[0]
}

/** Sequential GETs on one kept-alive connection; latencies in ms, status and body size. */
function client(base, cookie) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = (path) =>
    new Promise((resolve, reject) => {
      const started = performance.now()
      http
        .get(`${base}${path}`, { agent, headers: { Cookie: cookie } }, (res) => {
          const chunks = []
          res.on('data', (c) => chunks.push(c))
          res.on('end', () =>
            resolve({
              ms: performance.now() - started,
              status: res.statusCode,
              body: Buffer.concat(chunks),
            }),
          )
        })
        .on('error', reject)
    })
  return {
    get,
    json: async (path) => {
      const r = await get(path)
      if (r.status >= 400) throw new Error(`GET ${path}: ${r.status} ${r.body}`)
      return JSON.parse(r.body.toString())
    },
    async measure(path, requests = REQUESTS) {
      const first = await get(path) // warms caches and plans; not counted
      if (first.status >= 400) return { path, status: first.status }
      const ms = []
      for (let i = 0; i < requests; i += 1) ms.push((await get(path)).ms)
      const text = first.body.toString()
      const rows = text.startsWith('[') ? JSON.parse(text).length : 1
      return {
        path,
        status: first.status,
        rows,
        kb: first.body.length / 1024,
        p50: percentile(ms, 50),
        p99: percentile(ms, 99),
      }
    },
    close: () => agent.destroy(),
  }
}

/** The ids the reads are about: a project, a template of it, a deep cursor, the long log. */
async function subjects(url, api) {
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  try {
    const long = await db.query('SELECT id, project_id FROM task WHERE message = $1', [
      LONG_LOG_MESSAGE,
    ])
    const projectId = long.rows[0].project_id
    const template = await db.query('SELECT min(id) AS id FROM template WHERE project_id = $1', [
      projectId,
    ])
    const tasks = await db.query(
      `SELECT count(*)::int AS n, max(id) AS newest,
              percentile_disc(0.5) WITHIN GROUP (ORDER BY id) AS middle
       FROM task WHERE project_id = $1`,
      [projectId],
    )
    const events = await db.query(
      `SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY id) AS middle FROM event
       WHERE project_id = $1`,
      [projectId],
    )
    const small = await db.query(
      // The next task of the project after the long one has a log of ordinary length.
      `SELECT id FROM task WHERE project_id = $1 AND id > $2 ORDER BY id LIMIT 1`,
      [projectId, long.rows[0].id],
    )
    const active = (await api.json('/api/tasks')).length
    return {
      projectId,
      templateId: template.rows[0].id,
      taskCount: tasks.rows[0].n,
      middleTask: tasks.rows[0].middle,
      middleEvent: events.rows[0].middle,
      longTask: long.rows[0].id,
      smallTask: small.rows[0]?.id ?? long.rows[0].id,
      active,
    }
  } finally {
    await db.end()
  }
}

const ACTIVE = 8

/**
 * Marks the project's newest finished tasks running or waiting for confirmation, as if they
 * were (a restarted server has failed the ones the generator left unfinished). Only the list
 * reads them; nothing runs.
 */
async function activate(url, projectId) {
  const db = new pg.Client({ connectionString: url })
  await db.connect()
  await db.query(
    `UPDATE task SET status = CASE WHEN id % 2 = 0 THEN 'running' ELSE 'waiting_confirmation' END
     WHERE id IN (SELECT id FROM task WHERE project_id = $1 ORDER BY id DESC LIMIT $2)`,
    [projectId, ACTIVE],
  )
  await db.end()
}

async function measureAll(url) {
  const server = await startServer(url)
  const api = client(server.base, await signIn(server.base))
  try {
    const s = await subjects(url, api)
    const p = `/api/project/${s.projectId}`
    const t = `${p}/templates/${s.templateId}`
    const reads = [
      ['floor: GET /api/ping', '/api/ping'],
      ['history, unparameterised (1000)', `${p}/tasks`],
      ['history, first page of 50', `${p}/tasks?limit=50`],
      ['history, middle page of 50', `${p}/tasks?limit=50&before_id=${s.middleTask}`],
      ['tasks/last (200)', `${p}/tasks/last`],
      ['template tasks (1000)', `${t}/tasks`],
      // What the new-task dialog of a deploy template asks for: the build's successful tasks.
      ['template tasks status=success (1000)', `${t}/tasks?status=success`],
      ['template tasks status=error', `${t}/tasks?status=error`],
      ['template tasks, page of 50', `${t}/tasks?limit=50`],
      ['template tasks/last', `${t}/tasks/last`],
      [`active tasks (${s.active} active)`, '/api/tasks'],
      [`active tasks (${ACTIVE} more active)`, '/api/tasks', () => activate(url, s.projectId)],
      ['project events (1000)', `${p}/events`],
      ['project events/last (200)', `${p}/events/last`],
      ['project events, middle page of 50', `${p}/events?limit=50&before_id=${s.middleEvent}`],
      ['all events (1000)', '/api/events'],
      ['all events/last (200)', '/api/events/last'],
      ['small task output', `${p}/tasks/${s.smallTask}/output`],
      ['long log: count', `${p}/tasks/${s.longTask}/output/count`],
      ['long log: first 1000', `${p}/tasks/${s.longTask}/output?offset=1&limit=1000`],
      ['long log: middle 1000', `${p}/tasks/${s.longTask}/output?offset=500001&limit=1000`],
      ['long log: last 1000', `${p}/tasks/${s.longTask}/output?offset=999001&limit=1000`],
      // Log search: one line of the long log, a text on every line of it, and across the project.
      ['long log: search, one line', `${p}/tasks/${s.longTask}/output/search?q=line%20777777%20ok`],
      ['long log: search, every line', `${p}/tasks/${s.longTask}/output/search?q=host-5%5D`],
      ['project search, one line', `${p}/output/search?q=line%20999999%20ok`],
      ['project search, common text', `${p}/output/search?q=changed%3Dfalse`],
    ]
    const results = []
    for (const [label, path, before] of reads) {
      await before?.()
      results.push({ label, ...(await api.measure(path)) })
    }
    results.push({
      label: `long log, whole (${WHOLE_LOG_REQUESTS} requests)`,
      ...(await api.measure(`${p}/tasks/${s.longTask}/output`, WHOLE_LOG_REQUESTS)),
    })
    return { subjects: s, results }
  } finally {
    api.close()
    await server.stop()
  }
}

function print(title, large, empty) {
  console.log(`\n${title}`)
  console.log(
    `${'read'.padEnd(38)} ${'rows'.padStart(6)} ${'KB'.padStart(7)}  ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  ${'empty p50'.padStart(9)} ${'empty p99'.padStart(9)}`,
  )
  for (const r of large.results) {
    const e = empty.results.find((x) => x.label === r.label || x.path === r.path) ?? {}
    const fmt = (v, w) => (v === undefined ? 'n/a' : v.toFixed(1)).padStart(w)
    if (r.p50 === undefined) {
      console.log(`${r.label.padEnd(38)} HTTP ${r.status} (not offered by this build)`)
      continue
    }
    const flag = r.p99 >= GOAL_P99_MS && !r.label.startsWith('long log, whole') ? '  > goal' : ''
    console.log(
      `${r.label.padEnd(38)} ${String(r.rows).padStart(6)} ${r.kb.toFixed(0).padStart(7)}  ${fmt(r.p50, 7)} ${fmt(r.p99, 7)}  ${fmt(e.p50, 9)} ${fmt(e.p99, 9)}${flag}`,
    )
  }
}

async function main() {
  if (!(await databaseExists(NAME))) {
    throw new Error(
      `No database ${NAME}: fill it first with BENCH_KEEP=1 node bench/million-tasks.mjs`,
    )
  }
  const emptyName = `${NAME}_empty`
  console.log(`Nearly empty comparison database ${emptyName}:`)
  await generate({
    name: emptyName,
    tasks: 20,
    lines: 2000,
    projects: 1,
    templatesPerProject: 2,
  })
  try {
    const empty = await measureAll(databaseUrl(emptyName))
    const large = await measureAll(databaseUrl(NAME))
    const s = large.subjects
    print(
      `${NAME}: project ${s.projectId} has ${s.taskCount} tasks; long log task ${s.longTask}; ` +
        `${REQUESTS} sequential requests each (goal: p99 < ${GOAL_P99_MS} ms)`,
      large,
      empty,
    )
  } finally {
    await dropDatabase(emptyName)
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
