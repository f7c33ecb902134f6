#!/usr/bin/env node
// Log throughput: one bash task printing BENCH_LINES short lines (default 1,000,000). Prints
// lines per second stored (create → finished, then every row counted and checked in order)
// with no live viewer, then stored and delivered to a websocket client, next to the same
// command writing to /dev/null.
//
// Usage (after `npm run build`): node bench/task-log-throughput.mjs

import { execSync } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { processStats, startBench } from './task-common.mjs'

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000) || 1_000_000
const COMMAND = `seq -f 'line %.0f' 1 ${LINES}`
const FINISHED = ['success', 'error', 'stopped']
const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} lines/s`

const bench = await startBench({ 'lines.sh': `${COMMAND}\n` })
try {
  const t = performance.now()
  execSync(`${COMMAND} > /dev/null`, { shell: '/bin/bash' })
  const devNullMs = performance.now() - t
  console.log(`lines printed per task: ${LINES.toLocaleString('en')}`)
  console.log(`same command to /dev/null: ${devNullMs.toFixed(0)} ms (${rate(LINES, devNullMs)})`)

  const tpl = await bench.template('lines.sh')
  const base = `/api/project/${bench.project.id}/tasks`

  /** Every stored line of the task, checked to be whole and in order. */
  const checkStored = async (taskId) => {
    const output = await bench.api('GET', `${base}/${taskId}/output`)
    let stored = 0
    let inOrder = true
    for (const o of output) {
      if (!o.output.startsWith('line ')) continue
      stored += 1
      if (inOrder && o.output !== `line ${stored}`) inOrder = false
    }
    return { stored, inOrder }
  }

  // 1. Stored only: nobody watches the task live.
  {
    const before = processStats(bench.pid)
    const t0 = performance.now()
    const task = await bench.run(tpl)
    let status
    for (;;) {
      status = (await bench.api('GET', `${base}/${task.id}`)).status
      if (FINISHED.includes(status)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - t0
    const after = processStats(bench.pid)
    const { stored, inOrder } = await checkStored(task.id)
    console.log(
      `no live viewer: ${status}; stored ${stored.toLocaleString('en')} rows, in order: ${inOrder}; create → finished ${ms.toFixed(0)} ms (${rate(stored, ms)}); server CPU ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s`,
    )
  }

  // 2. Stored and delivered to a websocket client.
  {
    const ws = await bench.socket()
    let delivered = 0
    let lastDelivery = 0
    let finished
    const done = new Promise((r) => (finished = r))
    let taskId = -1
    const LOG = Buffer.from('{"type":"log"')
    const LINE = Buffer.from('"output":"line ')
    ws.on('message', (data) => {
      // Log lines are counted without decoding or parsing each one; updates are parsed.
      if (data.subarray(0, LOG.length).equals(LOG)) {
        if (data.includes(LINE, LOG.length)) {
          delivered += 1
          lastDelivery = performance.now()
        }
        return
      }
      const m = JSON.parse(String(data))
      if (m.type === 'update' && m.task_id === taskId && FINISHED.includes(m.status)) {
        finished(m.status)
      }
    })
    // The server disconnects a client that falls too far behind; say so instead of waiting.
    ws.on('close', () => finished('websocket closed by the server before the task ended'))
    const before = processStats(bench.pid)
    const t0 = performance.now()
    const task = await bench.run(tpl)
    taskId = task.id
    const status = await done
    const storedMs = performance.now() - t0
    const after = processStats(bench.pid)
    await new Promise((r) => setTimeout(r, 500))
    const { stored, inOrder } = await checkStored(task.id)
    ws.close()
    console.log(
      `with a websocket client: ${status}; stored ${stored.toLocaleString('en')} rows, in order: ${inOrder}; create → finished ${storedMs.toFixed(0)} ms (${rate(stored, storedMs)})`,
    )
    console.log(
      `websocket: ${delivered.toLocaleString('en')} lines delivered, last at ${(lastDelivery - t0).toFixed(0)} ms (${rate(delivered, lastDelivery - t0)})`,
    )
    console.log(
      `server CPU during the task: ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s; RSS ${after.rssMb.toFixed(0)} MB`,
    )
  }
} finally {
  await bench.stop()
}
