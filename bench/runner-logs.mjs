#!/usr/bin/env node
// Log throughput through a runner: one bash task printing BENCH_LINES short lines (default
// 1,000,000) on a runner process on the same machine. Prints lines per second stored
// (create → finished, then every row counted and checked in order) with no live viewer,
// then stored and delivered to a websocket client. Exits 1 when a line is lost.
//
// Usage (after `npm run build`): node bench/runner-logs.mjs

import { performance } from 'node:perf_hooks'
import { startRunner } from './runner-common.mjs'
import { processStats, startBench } from './task-common.mjs'

const LINES = Number(process.env.BENCH_LINES ?? 1_000_000) || 1_000_000
const FINISHED = ['success', 'error', 'stopped']
const rate = (count, ms) => `${Math.round(count / (ms / 1000)).toLocaleString('en')} lines/s`

const bench = await startBench({ 'lines.sh': `seq -f 'line %.0f' 1 ${LINES}\n` })
let runner
let lost = 0
try {
  runner = await startRunner(bench, 'logs')
  const base = `/api/project/${bench.project.id}`
  const repositories = await bench.api('GET', `${base}/repositories`)
  const tpl = await bench.api('POST', `${base}/templates`, {
    name: 'bench-runner-lines',
    project_id: bench.project.id,
    app: 'bash',
    playbook: 'lines.sh',
    repository_id: repositories[0].id,
    runner_tag: 'logs',
  })
  console.log(`lines printed per task: ${LINES.toLocaleString('en')}, through runner #${runner.id}`)

  /** Every stored line of the task, checked to be whole and in order. */
  const checkStored = async (taskId) => {
    const output = await bench.api('GET', `${base}/tasks/${taskId}/output`)
    let stored = 0
    let inOrder = true
    for (const o of output) {
      if (!o.output.startsWith('line ')) continue
      stored += 1
      if (inOrder && o.output !== `line ${stored}`) inOrder = false
    }
    return { stored, inOrder }
  }
  const cpu = () => ({
    server: processStats(bench.pid).cpuSeconds,
    runner: processStats(runner.pid).cpuSeconds,
  })
  const cpuUsed = (before, after) =>
    `server CPU ${(after.server - before.server).toFixed(1)} s, runner CPU ${(after.runner - before.runner).toFixed(1)} s`

  // 1. Stored only: nobody watches the task live.
  {
    const before = cpu()
    const t0 = performance.now()
    const task = await bench.api('POST', `${base}/tasks`, { template_id: tpl.id })
    let status
    for (;;) {
      status = (await bench.api('GET', `${base}/tasks/${task.id}`)).status
      if (FINISHED.includes(status)) break
      await new Promise((r) => setTimeout(r, 20))
    }
    const ms = performance.now() - t0
    const after = cpu()
    const { stored, inOrder } = await checkStored(task.id)
    lost += LINES - stored
    console.log(
      `no live viewer: ${status}; stored ${stored.toLocaleString('en')} rows (lost ${LINES - stored}), in order: ${inOrder}; create → finished ${ms.toFixed(0)} ms (${rate(stored, ms)}); ${cpuUsed(before, after)}`,
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
    ws.on('close', () => finished('websocket closed by the server before the task ended'))
    const before = cpu()
    const t0 = performance.now()
    const task = await bench.api('POST', `${base}/tasks`, { template_id: tpl.id })
    taskId = task.id
    const status = await done
    const storedMs = performance.now() - t0
    const after = cpu()
    await new Promise((r) => setTimeout(r, 500))
    const { stored, inOrder } = await checkStored(task.id)
    ws.close()
    lost += LINES - stored + (LINES - delivered)
    console.log(
      `with a websocket client: ${status}; stored ${stored.toLocaleString('en')} rows (lost ${LINES - stored}), in order: ${inOrder}; create → finished ${storedMs.toFixed(0)} ms (${rate(stored, storedMs)}); ${cpuUsed(before, after)}`,
    )
    console.log(
      `websocket: ${delivered.toLocaleString('en')} lines delivered (lost ${LINES - delivered}), last at ${(lastDelivery - t0).toFixed(0)} ms (${rate(delivered, lastDelivery - t0)})`,
    )
  }
  console.log(lost === 0 ? 'lost lines: 0' : `LOST LINES: ${lost}`)
} finally {
  await runner?.stop()
  await bench.stop()
}
if (lost !== 0) process.exit(1)
