#!/usr/bin/env node
// Task start latency: from the create request to the task's first own output line over the
// websocket, for a `true`-like bash script, run one after another. Prints median and p99.
//
// Usage (after `npm run build`): node bench/task-latency.mjs   (BENCH_TASKS, default 200)

import { performance } from 'node:perf_hooks'
import { median, percentile, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_TASKS ?? 200) || 200
const FINISHED = ['success', 'error', 'stopped']
const bench = await startBench({ 'mark.sh': 'echo bench-mark\n' })
try {
  const ws = await bench.socket()
  const seen = new Map()
  const entryOf = (id) => {
    let e = seen.get(id)
    if (!e) {
      let resolve
      const done = new Promise((r) => (resolve = r))
      e = { first: undefined, done, resolve }
      seen.set(id, e)
    }
    return e
  }
  ws.on('message', (data) => {
    const m = JSON.parse(String(data))
    const e = entryOf(m.task_id)
    if (m.type === 'log' && m.output === 'bench-mark' && e.first === undefined) {
      e.first = performance.now()
    }
    if (m.type === 'update' && FINISHED.includes(m.status)) e.resolve(m.status)
  })
  const tpl = await bench.template('mark.sh')
  const firstLine = []
  const total = []
  let failed = 0
  for (let i = 0; i < COUNT; i += 1) {
    const t0 = performance.now()
    const task = await bench.run(tpl)
    const entry = entryOf(task.id)
    const status = await entry.done
    if (status !== 'success') failed += 1
    if (entry.first !== undefined) firstLine.push(entry.first - t0)
    total.push(performance.now() - t0)
    seen.delete(task.id)
  }
  ws.close()
  const f = (v) => `${v.toFixed(1)} ms`
  console.log(`tasks: ${COUNT} (failed: ${failed})`)
  console.log(
    `create → first output line: median ${f(median(firstLine))}, p99 ${f(percentile(firstLine, 99))}`,
  )
  console.log(
    `create → finished:          median ${f(median(total))}, p99 ${f(percentile(total, 99))}`,
  )
} finally {
  await bench.stop()
}
