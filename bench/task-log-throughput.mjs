#!/usr/bin/env node
// Log throughput: one bash task printing BENCH_LINES short lines (default 1,000,000). Prints
// lines per second stored (create → finished, then every row counted) and delivered to a
// websocket client, next to the same command writing to /dev/null.
//
// Usage (after `npm run build`): node bench/task-log-throughput.mjs

import { execSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { processStats, startBench } from './task-common.mjs'

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000) || 1_000_000
const COMMAND = `seq -f 'line %.0f' 1 ${LINES}`
const bench = await startBench({ 'lines.sh': `${COMMAND}\n` })
try {
  const t = performance.now()
  execSync(`${COMMAND} > /dev/null`, { shell: '/bin/bash' })
  const devNullMs = performance.now() - t

  const ws = await bench.socket()
  let delivered = 0
  let lastDelivery = 0
  let finished
  const done = new Promise((r) => (finished = r))
  let taskId = -1
  ws.on('message', (data) => {
    const m = JSON.parse(String(data))
    if (m.type === 'log' && m.output.startsWith('line ')) {
      delivered += 1
      lastDelivery = performance.now()
    }
    if (
      m.type === 'update' &&
      m.task_id === taskId &&
      ['success', 'error', 'stopped'].includes(m.status)
    ) {
      finished(m.status)
    }
  })
  // The server disconnects a client that falls too far behind; say so instead of waiting.
  ws.on('close', () => finished('websocket closed by the server before the task ended'))
  const tpl = await bench.template('lines.sh')
  const before = processStats(bench.pid)
  const t0 = performance.now()
  const task = await bench.run(tpl)
  taskId = task.id
  const status = await done
  const storedMs = performance.now() - t0
  const after = processStats(bench.pid)
  await new Promise((r) => setTimeout(r, 500))
  const output = await bench.api('GET', `/api/project/${bench.project.id}/tasks/${task.id}/output`)
  const stored = output.filter((o) => o.output.startsWith('line ')).length
  let inOrder = true
  let n = 0
  for (const o of output) {
    if (!o.output.startsWith('line ')) continue
    n += 1
    if (o.output !== `line ${n}`) {
      inOrder = false
      break
    }
  }
  ws.close()
  const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} lines/s`
  console.log(`task status: ${status}; lines printed: ${LINES.toLocaleString('en')}`)
  console.log(`same command to /dev/null: ${devNullMs.toFixed(0)} ms (${rate(LINES, devNullMs)})`)
  console.log(
    `stored: ${stored.toLocaleString('en')} rows in order: ${inOrder}; create → finished ${storedMs.toFixed(0)} ms (${rate(stored, storedMs)})`,
  )
  console.log(
    `websocket: ${delivered.toLocaleString('en')} lines delivered, last at ${(lastDelivery - t0).toFixed(0)} ms (${rate(delivered, lastDelivery - t0)})`,
  )
  console.log(
    `server CPU during the task: ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s; RSS ${after.rssMb.toFixed(0)} MB`,
  )
} finally {
  await bench.stop()
}
