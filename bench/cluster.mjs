#!/usr/bin/env node
// Several server instances on one PostgreSQL database (a scratch one, created and dropped
// here). For 1, 2 and 3 instances (BENCH_INSTANCES, e.g. "1,2,3"):
// - dispatch: BENCH_TASKS (500) no-op bash tasks queued on 50 templates drain through the
//   cluster; tasks/s from the release of the queue to the last task finished;
// - start latency: 60 tasks posted one after another, round robin over the instances, on an
//   idle cluster; create → process start, from each task's recorded start timings.
// With 3 instances, also:
// - websocket delivery: a task printing 20,000 lines, watched on the instance that runs it
//   and on another; lag from a line's arrival at the server to its delivery (median, p99);
// - takeover: the time from killing an instance that runs a task (SIGKILL) to the task
//   ended by another, and from pausing one (SIGSTOP: its process is still there, so only
//   its heartbeat tells) with FLAGMAN_INSTANCE_TIMEOUT_SECONDS=6;
// - rolling restart: each of the three replaced in turn (a new one started, the old one sent
//   SIGTERM and drained) while 4 clients read through a balancer that follows readiness;
//   requests answered, failed, and their latency (median, p99).
//
// Usage (after `npm run build`): node bench/cluster.mjs

import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { performance } from 'node:perf_hooks'
import pg from 'pg'

process.env.BENCH_DB = 'postgres'
const { scratchDatabase } = await import('./scratch-db.mjs')
const { apiOf, benchProject, benchRepository, median, percentile, signIn, socketOf, spawnServer } =
  await import('./task-common.mjs')

const COUNT = Number(process.env.BENCH_TASKS ?? 500) || 500
const TEMPLATES = 50
const SIZES = (process.env.BENCH_INSTANCES ?? '1,2,3').split(',').map(Number)
const TIMEOUT_SECONDS = 6
const FINISHED = ['success', 'error', 'stopped']
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

async function startInstance(env) {
  const server = await spawnServer(env)
  const health = await (await fetch(`${server.url}/api/health/live`)).json()
  return { ...server, id: health.instance }
}

/** A cluster of `size` instances on a fresh database, with a signed-in API on each. */
async function startCluster(size, repo, extraEnv = {}) {
  const database = await scratchDatabase('flagman_bench_cluster')
  const env = {
    ...extraEnv,
    FLAGMAN_DB: database.url,
    FLAGMAN_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
    FLAGMAN_INSTANCE_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
    FLAGMAN_MAX_PARALLEL_TASKS: '0',
  }
  const instances = []
  for (let i = 0; i < size; i += 1) instances.push(await startInstance(env))
  const cookie = await signIn(instances[0].url)
  const api = (instance) => apiOf(instance.url, cookie)
  const { project, template } = await benchProject(instances[0].url, cookie, repo)
  const db = new pg.Client({ connectionString: database.url })
  await db.connect()
  const socket = (instance) => socketOf(instance.url, cookie)
  return {
    instances,
    env,
    cookie,
    project,
    projectPath: `/api/project/${project.id}`,
    api,
    template,
    db,
    socket,
    async stop() {
      await db.end()
      for (const instance of instances) await instance.stop()
      await database.drop()
    },
  }
}

async function waitForStatus(cluster, taskId, statuses, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { rows } = await cluster.db.query('select status from task where id = $1', [taskId])
    if (statuses.includes(rows[0]?.status)) return rows[0].status
    if (Date.now() > deadline) throw new Error(`task ${taskId} is ${rows[0]?.status}`)
    await sleep(5)
  }
}

async function dispatch(size, repo) {
  const cluster = await startCluster(size, repo)
  try {
    const { projectPath, project } = cluster
    const first = cluster.api(cluster.instances[0])
    const setLimit = (max) =>
      first('PUT', projectPath, { id: project.id, name: project.name, max_parallel_tasks: max })
    const templates = []
    for (let i = 0; i < TEMPLATES; i += 1) templates.push(await cluster.template('noop.sh'))
    const blockerTemplate = await cluster.template('block.sh')
    await setLimit(1)
    const blocker = await first('POST', `${projectPath}/tasks`, { template_id: blockerTemplate })
    await waitForStatus(cluster, blocker.id, ['running'])
    const apis = cluster.instances.map(cluster.api)
    const ids = []
    for (let i = 0; i < COUNT; i += 1) {
      const task = await apis[i % size]('POST', `${projectPath}/tasks`, {
        template_id: templates[i % TEMPLATES],
      })
      ids.push(task.id)
    }
    await setLimit(0)
    const t0 = performance.now()
    await first('POST', `${projectPath}/tasks/${blocker.id}/stop`, { force: true })
    for (;;) {
      const { rows } = await cluster.db.query(
        `select count(*)::int as n from task where id = any($1) and status = any($2)`,
        [ids, FINISHED],
      )
      if (rows[0].n === COUNT) break
      await sleep(2)
    }
    const seconds = (performance.now() - t0) / 1000
    const spread = await cluster.db.query(
      'select claimed_by, count(*)::int as n from task where id = any($1) group by claimed_by',
      [ids],
    )

    // Start latency on an idle cluster, one task at a time.
    const latencies = []
    for (let i = 0; i < 60; i += 1) {
      const task = await apis[i % size]('POST', `${projectPath}/tasks`, {
        template_id: templates[i % TEMPLATES],
      })
      await waitForStatus(cluster, task.id, FINISHED)
      const { rows } = await cluster.db.query('select start_timings from task where id = $1', [
        task.id,
      ])
      const timings = JSON.parse(rows[0].start_timings ?? '{}')
      if (typeof timings.total_ms === 'number') latencies.push(timings.total_ms)
    }
    return {
      rate: COUNT / seconds,
      spread: spread.rows.map((r) => r.n).join('/'),
      latencies,
    }
  } finally {
    await cluster.stop()
  }
}

/** Starts tasks until one runs on `instance`; the others are stopped. */
async function taskOn(cluster, instance, templateId) {
  const first = cluster.api(cluster.instances[0])
  for (;;) {
    const task = await first('POST', `${cluster.projectPath}/tasks`, { template_id: templateId })
    await waitForStatus(cluster, task.id, ['running'])
    const { rows } = await cluster.db.query('select claimed_by from task where id = $1', [task.id])
    if (rows[0].claimed_by === instance.id) return task.id
    await first('POST', `${cluster.projectPath}/tasks/${task.id}/stop`, { force: true })
    await waitForStatus(cluster, task.id, FINISHED)
  }
}

async function threeInstances(repo) {
  const cluster = await startCluster(3, repo)
  try {
    const [a, b, c] = cluster.instances
    // Websocket delivery of 20,000 lines, on the instance running the task and on another.
    const lines = await cluster.template('lines.sh')
    const [onOwner, onOther] = [await cluster.socket(a), await cluster.socket(b)]
    const lags = { owner: [], other: [] }
    const collect = (ws, into) =>
      ws.on('message', (data) => {
        const now = Date.now()
        const m = JSON.parse(String(data))
        if (m.type === 'log' && m.output.startsWith('line ')) into.push(now - Date.parse(m.time))
      })
    collect(onOwner, lags.owner)
    collect(onOther, lags.other)
    let printed
    for (;;) {
      const task = await cluster.api(a)('POST', `${cluster.projectPath}/tasks`, {
        template_id: lines,
      })
      await waitForStatus(cluster, task.id, FINISHED)
      const { rows } = await cluster.db.query('select claimed_by from task where id = $1', [
        task.id,
      ])
      if (rows[0].claimed_by === a.id) {
        printed = task.id
        break
      }
      lags.owner.length = 0
      lags.other.length = 0
    }
    await sleep(500)
    onOwner.close()
    onOther.close()

    // Takeover after SIGKILL (the process is gone: found at once on the same host) and
    // after SIGSTOP (only the heartbeat tells).
    const sleeper = await cluster.template('block.sh')
    const killedTask = await taskOn(cluster, c, sleeper)
    let t0 = performance.now()
    c.signal('SIGKILL')
    await waitForStatus(cluster, killedTask, ['error'])
    const afterKill = performance.now() - t0
    cluster.instances.splice(cluster.instances.indexOf(c), 1)
    const pausedTask = await taskOn(cluster, b, await cluster.template('block.sh'))
    t0 = performance.now()
    b.signal('SIGSTOP')
    await waitForStatus(cluster, pausedTask, ['error'])
    const afterPause = performance.now() - t0
    b.signal('SIGCONT')
    return { printed, lags, afterKill, afterPause }
  } finally {
    await cluster.stop()
  }
}

/** Replaces each of three instances in turn under a steady read load. */
async function rollingRestart(repo) {
  const cluster = await startCluster(3, repo, { FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '30' })
  try {
    const members = cluster.instances.map((instance) => ({ instance, ready: true }))
    let running = true
    const checks = (async () => {
      while (running) {
        await Promise.all(
          members.map(async (member) => {
            try {
              const res = await fetch(`${member.instance.url}/api/health/ready`)
              member.ready = res.status === 200
            } catch {
              member.ready = false
            }
          }),
        )
        await sleep(100)
      }
    })()
    const paths = ['/api/projects', `${cluster.projectPath}/templates`, '/api/user']
    const latencies = []
    let failed = 0
    let next = 0
    const worker = async () => {
      for (let i = 0; running; i += 1) {
        const ready = members.filter((member) => member.ready)
        const { url } = ready[(next += 1) % ready.length].instance
        const start = performance.now()
        try {
          const res = await fetch(`${url}${paths[i % paths.length]}`, {
            headers: { Cookie: cluster.cookie },
          })
          await res.arrayBuffer()
          if (res.status === 200) latencies.push(performance.now() - start)
          else failed += 1
        } catch {
          failed += 1
        }
      }
    }
    const workers = Array.from({ length: 4 }, worker)
    const t0 = performance.now()
    for (const old of [...members]) {
      const fresh = { instance: await startInstance(cluster.env), ready: false }
      members.push(fresh)
      while (!fresh.ready) await sleep(20)
      cluster.instances.push(fresh.instance)
      await old.instance.stop()
      members.splice(members.indexOf(old), 1)
      cluster.instances.splice(cluster.instances.indexOf(old.instance), 1)
    }
    const seconds = (performance.now() - t0) / 1000
    running = false
    await Promise.all(workers)
    await checks
    return { latencies, failed, seconds }
  } finally {
    await cluster.stop()
  }
}

const repo = benchRepository({
  'noop.sh': 'true\n',
  'block.sh': 'echo started\nsleep 600\n',
  'lines.sh': 'seq -f "line %.0f" 1 20000\n',
})
try {
  for (const size of SIZES) {
    const r = await dispatch(size, repo)
    console.log(
      `${size} instance(s): dispatch ${r.rate.toFixed(0)} tasks/s for ${COUNT} tasks on ${TEMPLATES} templates ` +
        `(ran per instance: ${r.spread}); start latency median ${median(r.latencies).toFixed(1)} ms, ` +
        `p99 ${percentile(r.latencies, 99).toFixed(1)} ms (${r.latencies.length} tasks)`,
    )
  }
  if (SIZES.includes(3)) {
    const r = await threeInstances(repo)
    const show = (values) =>
      `median ${median(values).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms (${values.length} lines)`
    console.log(`websocket delivery, same instance: ${show(r.lags.owner)}`)
    console.log(`websocket delivery, another instance: ${show(r.lags.other)}`)
    console.log(
      `takeover after SIGKILL: ${r.afterKill.toFixed(0)} ms; after SIGSTOP (heartbeat, ` +
        `FLAGMAN_INSTANCE_TIMEOUT_SECONDS=${TIMEOUT_SECONDS}): ${r.afterPause.toFixed(0)} ms`,
    )
    const rolling = await rollingRestart(repo)
    console.log(
      `rolling restart of 3 instances in ${rolling.seconds.toFixed(1)} s: ` +
        `${rolling.latencies.length} requests answered, ${rolling.failed} failed; ` +
        `latency median ${median(rolling.latencies).toFixed(1)} ms, ` +
        `p99 ${percentile(rolling.latencies, 99).toFixed(1)} ms`,
    )
  }
} finally {
  rmSync(repo, { recursive: true, force: true })
}
