#!/usr/bin/env node
// Webhook delivery latency and debounced burst throughput.
//
// 1. Latency: hmac-signed deliveries to an integration of a `true`-like bash template, one
//    after another (each once the previous task has finished, so no task waits for its
//    template). Prints median and p99 of delivery sent → 204 answer (the task is created and
//    queued by then) and of delivery sent → the task reported `running` over the websocket.
// 2. Burst: deliveries to an integration with debounce on, sent as fast as a few dozen
//    connections allow, spread over aliases so the per-alias rate limit does not refuse them.
//    Prints deliveries per second answered, tasks started, and the outcomes the delivery log
//    recorded (it keeps an integration's last 100).
//
// Usage (after `npm run build`): node bench/webhook-latency.mjs
//   BENCH_DELIVERIES (default 200), BENCH_BURST (default 500)

import { createHmac } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import { median, percentile, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_DELIVERIES ?? 200) || 200
const BURST = Number(process.env.BENCH_BURST ?? 500) || 500
/** The receiver lets 30 deliveries per alias through at once, then 10 per second. */
const PER_ALIAS = 25
const IN_FLIGHT = 32
const SECRET = 'bench-webhook-secret'
const FINISHED = ['success', 'error', 'stopped']

const sign = (body) => createHmac('sha256', SECRET).update(body).digest('hex')

const bench = await startBench({ 'true.sh': 'true\n' }, { FLAGMAN_MAX_PARALLEL_TASKS: '0' })
try {
  const pid = bench.project.id
  const base = `/api/project/${pid}`
  const key = await bench.api('POST', `${base}/keys`, {
    name: 'webhook secret',
    type: 'login_password',
    project_id: pid,
    login_password: { login: '', password: SECRET },
  })
  const integration = async (name, templateId, debounce) => {
    const made = await bench.api('POST', `${base}/integrations`, {
      name,
      project_id: pid,
      template_id: templateId,
      auth_method: 'hmac',
      auth_header: 'X-Signature',
      auth_secret_id: key.id,
      debounce,
    })
    await bench.api('POST', `${base}/integrations/${made.id}/values`, {
      name: 'ref',
      value_source: 'body',
      body_data_type: 'json',
      key: 'ref',
      variable: 'REF',
    })
    return made
  }
  const alias = async (integrationId) => {
    const made = await bench.api('POST', `${base}/integrations/${integrationId}/aliases`)
    return made.url.split('/').pop()
  }
  const deliver = async (name, body) => {
    const res = await fetch(`${bench.url}/api/integrations/${name}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Signature': sign(body) },
      body,
    })
    await res.arrayBuffer()
    return res.status
  }

  // Latency.
  const ws = await bench.socket()
  const waiters = []
  const seen = new Map()
  ws.on('message', (data) => {
    const m = JSON.parse(String(data))
    if (m.type !== 'update') return
    let e = seen.get(m.task_id)
    if (!e) {
      e = { running: undefined, finished: false }
      seen.set(m.task_id, e)
    }
    if (m.status === 'running' && e.running === undefined) e.running = performance.now()
    if (FINISHED.includes(m.status)) e.finished = true
    for (const w of [...waiters]) w()
  })
  const until = (test) =>
    new Promise((resolve) => {
      const check = () => {
        const value = test()
        if (value === undefined) return
        waiters.splice(waiters.indexOf(check), 1)
        resolve(value)
      }
      waiters.push(check)
      check()
    })

  const single = await integration('latency', await bench.template('true.sh'), false)
  const singleAliases = []
  for (let i = 0; i < Math.ceil(COUNT / PER_ALIAS); i += 1)
    singleAliases.push(await alias(single.id))
  const answered = []
  const running = []
  let refused = 0
  let failed = 0
  for (let i = 0; i < COUNT; i += 1) {
    const known = new Set(seen.keys())
    const body = JSON.stringify({ ref: `refs/heads/bench-${i}`, n: i })
    const t0 = performance.now()
    const status = await deliver(singleAliases[Math.floor(i / PER_ALIAS)], body)
    answered.push(performance.now() - t0)
    if (status !== 204) {
      refused += 1
      continue
    }
    const id = await until(() => [...seen.keys()].find((taskId) => !known.has(taskId)))
    const entry = await until(() => {
      const e = seen.get(id)
      return e.finished ? e : undefined
    })
    if (entry.running === undefined) failed += 1
    else running.push(entry.running - t0)
  }
  ws.close()
  const log = await bench.api('GET', `${base}/integrations/${single.id}/deliveries`)
  const notStarted = log.filter((d) => d.result !== 'task_started').length

  // Debounced burst.
  const debounced = await integration('burst', await bench.template('true.sh'), true)
  const burstAliases = []
  for (let i = 0; i < Math.ceil(BURST / PER_ALIAS); i += 1)
    burstAliases.push(await alias(debounced.id))
  const statuses = new Map()
  let next = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      for (let i = next++; i < BURST; i = next++) {
        const body = JSON.stringify({ ref: `refs/heads/burst-${i}` })
        const status = await deliver(burstAliases[i % burstAliases.length], body)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
      }
    }),
  )
  const seconds = (performance.now() - t0) / 1000
  const tasks = await bench.api('GET', `${base}/tasks`)
  const started = tasks.filter((t) => t.integration_id === debounced.id).length
  const outcomes = new Map()
  for (const d of await bench.api('GET', `${base}/integrations/${debounced.id}/deliveries`)) {
    outcomes.set(d.result, (outcomes.get(d.result) ?? 0) + 1)
  }

  const f = (v) => `${v.toFixed(1)} ms`
  const list = (map) => [...map].map(([k, v]) => `${k} ${v}`).join(', ')
  console.log(
    `signed (hmac) deliveries: ${COUNT} (not answered 204: ${refused}, not run: ${failed})`,
  )
  console.log(
    `delivery → 204, task created:  median ${f(median(answered))}, p99 ${f(percentile(answered, 99))}`,
  )
  console.log(
    `delivery → task running:        median ${f(median(running))}, p99 ${f(percentile(running, 99))}`,
  )
  console.log(`delivery log: ${log.length - notStarted} of the last ${log.length} started a task`)
  console.log(
    `debounced burst: ${BURST} deliveries over ${burstAliases.length} aliases, ${IN_FLIGHT} connections, in ${seconds.toFixed(2)} s = ${(BURST / seconds).toFixed(0)} deliveries/s`,
  )
  console.log(`  answers: ${list(statuses)}; tasks started: ${started}`)
  console.log(
    `  delivery log (last ${[...outcomes.values()].reduce((a, b) => a + b, 0)}): ${list(outcomes)}`,
  )
} finally {
  await bench.stop()
}
