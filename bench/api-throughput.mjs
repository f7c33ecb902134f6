// API throughput on a mixed read load, beside its floor: a plain Node HTTP server answering the
// very same bodies. A project with 200 Bash templates and 2,000 finished tasks; 50 requests in
// flight over keep-alive connections, cycling through the template list, `tasks/last`, one
// task's output and the project list. Prints requests/s and latency percentiles of both, and
// the sequential latency of each request alone.
//
//   node bench/api-throughput.mjs                 SQLite in a temporary data folder
//   BENCH_POSTGRES=1 node bench/api-throughput.mjs  a scratch PostgreSQL database (dropped after)
//
// Then the same mix while tasks run (one started every BENCH_TASK_EVERY_MS, 100 ms): each start
// and end is a write, after which answers kept by the server are computed again. Then a light
// mix (projects, user, project, role, task output), whose cost is mostly the request pipeline
// itself. Ends with a one-line summary of all three.
//
// FLAGMAN_ANSWER_CACHE_MB=0 measures the server computing every answer.
//
// Options: BENCH_TEMPLATES (200), BENCH_TASKS (2000), BENCH_IN_FLIGHT (50), BENCH_SECONDS (10);
// FLAGMAN_BIN, another build's bin/flagman, to measure it with the very same script.

import { randomBytes } from 'node:crypto'
import http from 'node:http'
import pg from 'pg'
import { median, percentile, processStats, startBench } from './task-common.mjs'

const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 200)
const TASKS = Number(process.env.BENCH_TASKS ?? 2000)
const IN_FLIGHT = Number(process.env.BENCH_IN_FLIGHT ?? 50)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const TASK_EVERY_MS = Number(process.env.BENCH_TASK_EVERY_MS ?? 100)
const POSTGRES_ADMIN_URL =
  process.env.FLAGMAN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** A database of its own for the run, so that no shared database is ever touched. */
async function scratchPostgres() {
  const name = `flagman_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

/** Sends `paths` round-robin with `inFlight` requests open for `seconds`; latencies in ms. */
async function load(base, paths, headers, inFlight, seconds) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: inFlight })
  const latencies = []
  let next = 0
  let errors = 0
  const deadline = performance.now() + seconds * 1000
  const one = (path) =>
    new Promise((resolve) => {
      const started = performance.now()
      const req = http.get(`${base}${path}`, { agent, headers }, (res) => {
        res.resume()
        res.on('end', () => {
          if (res.statusCode !== 200) errors += 1
          latencies.push(performance.now() - started)
          resolve()
        })
      })
      req.on('error', () => {
        errors += 1
        resolve()
      })
    })
  const worker = async () => {
    while (performance.now() < deadline) await one(paths[next++ % paths.length])
  }
  const started = performance.now()
  await Promise.all(Array.from({ length: inFlight }, worker))
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  }
}

/** A plain Node server answering each path with the body Flagman gave for it. */
async function floorServer(bodies) {
  const server = http.createServer((req, res) => {
    const body = bodies.get(req.url)
    res.writeHead(body === undefined ? 404 : 200, { 'Content-Type': 'application/json' })
    res.end(body ?? '')
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() }
}

async function waitForIdle(api) {
  for (;;) {
    const active = await api('GET', '/api/tasks')
    if (active.length === 0) return
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** Starts a task every TASK_EVERY_MS until stopped; `stop` gives how many were started. */
function startTasks(bench, templates) {
  let started = 0
  let stopped = false
  const loop = (async () => {
    while (!stopped) {
      await bench.run(templates[started % templates.length])
      started += 1
      await new Promise((resolve) => setTimeout(resolve, TASK_EVERY_MS))
    }
  })()
  return {
    async stop() {
      stopped = true
      await loop
      return started
    },
  }
}

const scratch = process.env.BENCH_POSTGRES ? await scratchPostgres() : null
const bench = await startBench(
  { 'noop.sh': 'echo done\n' },
  scratch ? { FLAGMAN_DB: scratch.url } : {},
)
try {
  const { api, project } = bench
  console.log(`database: ${scratch ? 'PostgreSQL' : 'SQLite'}`)
  const setupStarted = performance.now()
  const templates = []
  for (let i = 0; i < TEMPLATES; i += 1) templates.push(await bench.template('noop.sh'))
  let lastTask
  for (let i = 0; i < TASKS; i += 1) lastTask = await bench.run(templates[i % templates.length])
  await waitForIdle(api)
  const setupSeconds = (performance.now() - setupStarted) / 1000
  console.log(
    `set-up: ${TEMPLATES} templates, ${TASKS} finished tasks in ${setupSeconds.toFixed(1)} s`,
  )

  const base = `/api/project/${project.id}`
  const paths = [
    `${base}/templates`,
    `${base}/tasks/last`,
    `${base}/tasks/${lastTask.id}/output`,
    '/api/projects',
  ]
  // Small answers whose cost is mostly the request pipeline: sign-in check, access, serialising.
  const lightPaths = [
    '/api/projects',
    '/api/user',
    base,
    `${base}/role`,
    `${base}/tasks/${lastTask.id}/output`,
  ]
  const headers = { Cookie: bench.cookie }
  const bodies = new Map()
  for (const path of new Set([...paths, ...lightPaths])) {
    const res = await fetch(`${bench.url}${path}`, { headers })
    if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
    bodies.set(path, await res.text())
  }

  console.log('\nsequential, each request alone (median / p99 of 200, ms):')
  for (const path of paths) {
    const times = []
    for (let i = 0; i < 200; i += 1) {
      const started = performance.now()
      await (await fetch(`${bench.url}${path}`, { headers })).arrayBuffer()
      times.push(performance.now() - started)
    }
    const size = (bodies.get(path).length / 1024).toFixed(1)
    console.log(
      `  ${path.replace(base, '{project}').padEnd(32)} ${median(times).toFixed(2).padStart(7)} / ${percentile(times, 99).toFixed(2).padStart(7)}   (${size} KB)`,
    )
  }

  const floor = await floorServer(bodies)
  const row = (name, r) =>
    `  ${name.padEnd(22)} ${r.perSecond.toFixed(0).padStart(7)}/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`
  const summary = []
  for (const [name, mix, withTasks] of [
    ['mixed', paths, false],
    ['mixed+tasks', paths, true],
    ['light', lightPaths, false],
  ]) {
    // The floor is measured right after Flagman, so that both see the same machine load.
    const cpuBefore = processStats(bench.pid).cpuSeconds
    const tasks = withTasks ? startTasks(bench, templates) : null
    const flagman = await load(bench.url, mix, headers, IN_FLIGHT, SECONDS)
    const started = await tasks?.stop()
    if (tasks) await waitForIdle(api)
    // Server CPU per answer hardly depends on what else the machine runs, unlike requests/s.
    const cpuMs = ((processStats(bench.pid).cpuSeconds - cpuBefore) * 1000) / flagman.requests
    const plain = await load(floor.url, mix, headers, IN_FLIGHT, SECONDS)
    const share = (100 * flagman.perSecond) / plain.perSecond
    const running = tasks ? `, ${started} tasks run meanwhile` : ''
    console.log(
      `\n${name} load (${mix.length} paths), ${IN_FLIGHT} in flight for ${SECONDS} s${running}:`,
    )
    console.log(row('Flagman', flagman))
    console.log(row('plain server (floor)', plain))
    console.log(`  Flagman reaches ${share.toFixed(1)} % of the floor`)
    console.log(`  Flagman server CPU per answer: ${cpuMs.toFixed(2)} ms`)
    summary.push(
      `${name} ${flagman.perSecond.toFixed(0)}/s = ${share.toFixed(1)} % of ${plain.perSecond.toFixed(0)}/s, ` +
        `p50 ${flagman.p50.toFixed(1)} ms, p99 ${flagman.p99.toFixed(1)} ms, CPU ${cpuMs.toFixed(2)} ms/answer`,
    )
  }
  floor.close()
  // One line per run, to set builds side by side (FLAGMAN_BIN measures another build).
  console.log(`\nsummary [${scratch ? 'PostgreSQL' : 'SQLite'}] ${summary.join(' | ')}`)
} finally {
  await bench.stop()
  await scratch?.drop()
}
