#!/usr/bin/env node
// 100 concurrent tasks (BENCH_TASKS): each of its own template, printing 2,000 lines over
// about a second. Prints server memory and CPU, wall time, and whether every log is whole.
//
// Usage (after `npm run build`): node bench/task-concurrency.mjs

import { performance } from 'node:perf_hooks'
import { processStats, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_TASKS ?? 100) || 100
const LINES = 2000
const script = `for i in 1 2 3 4; do seq -f "part $i line %.0f" 1 ${LINES / 4}; sleep 0.25; done\n`
const bench = await startBench({ 'work.sh': script }, { FLAGMAN_MAX_PARALLEL_TASKS: '0' })
try {
  const templates = []
  for (let i = 0; i < COUNT; i += 1) templates.push(await bench.template('work.sh'))
  const base = `/api/project/${bench.project.id}/tasks`
  const before = processStats(bench.pid)
  let peakRss = before.rssMb
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, processStats(bench.pid).rssMb)
  }, 100)
  const t0 = performance.now()
  const tasks = await Promise.all(templates.map((t) => bench.run(t)))
  const pending = new Set(tasks.map((t) => t.id))
  const statuses = new Map()
  while (pending.size > 0) {
    const list = await bench.api('GET', `${base}/last?limit=200`)
    for (const t of list) {
      if (pending.has(t.id) && ['success', 'error', 'stopped'].includes(t.status)) {
        pending.delete(t.id)
        statuses.set(t.id, t.status)
      }
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  const wallMs = performance.now() - t0
  clearInterval(sampler)
  const after = processStats(bench.pid)
  let whole = 0
  for (const t of tasks) {
    const output = await bench.api('GET', `${base}/${t.id}/output`)
    if (output.filter((o) => o.output.includes(' line ')).length === LINES) whole += 1
  }
  const ok = [...statuses.values()].filter((s) => s === 'success').length
  console.log(`tasks: ${COUNT}, success: ${ok}, with the full ${LINES}-line log: ${whole}`)
  console.log(`wall time create → all finished: ${wallMs.toFixed(0)} ms`)
  console.log(
    `server CPU: ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s; RSS before ${before.rssMb.toFixed(0)} MB, peak ${peakRss.toFixed(0)} MB`,
  )
} finally {
  await bench.stop()
}
