#!/usr/bin/env node
// Dispatch throughput: 500 no-op bash tasks (BENCH_TASKS) queued on 50 templates
// (BENCH_TEMPLATES) drain through the server; tasks/s from the release of the queue to the
// last task finished, beside the rate at which this machine spawns the same bash processes
// (50 at a time) measured in the same run.
//
// The tasks are held in the queue by a blocker task holding the project's only slot
// (max_parallel_tasks 1); the queue is released by lifting the project's limit and stopping
// the blocker, so every task is waiting in the database when the drain starts. The server's
// global limit is off (FLAGMAN_MAX_PARALLEL_TASKS=0), so only one-task-per-template limits.
//
// Usage (after `npm run build`): node bench/task-dispatch.mjs
// FLAGMAN_BIN=<other checkout>/bin/flagman measures another build the same way.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { processStats, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_TASKS ?? 500) || 500
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 50) || 50
const FINISHED = ['success', 'error', 'stopped']
const NOOP = 'true\n'

/** Processes per second when spawning `bash noop.sh` COUNT times, `parallel` at a time. */
async function spawnRate(parallel) {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-bench-spawn-'))
  writeFileSync(join(dir, 'noop.sh'), NOOP)
  const once = () =>
    new Promise((resolve, reject) => {
      const child = spawn('bash', [join(dir, 'noop.sh')], { cwd: dir, stdio: 'pipe' })
      child.once('error', reject)
      child.once('close', resolve)
    })
  const t0 = performance.now()
  let next = 0
  const lane = async () => {
    while (next < COUNT) {
      next += 1
      await once()
    }
  }
  await Promise.all(Array.from({ length: parallel }, lane))
  const seconds = (performance.now() - t0) / 1000
  rmSync(dir, { recursive: true, force: true })
  return COUNT / seconds
}

const bench = await startBench(
  { 'noop.sh': NOOP, 'block.sh': 'sleep 600\n' },
  { FLAGMAN_MAX_PARALLEL_TASKS: '0' },
)
try {
  const projectPath = `/api/project/${bench.project.id}`
  const setProjectLimit = (max) =>
    bench.api('PUT', projectPath, {
      id: bench.project.id,
      name: bench.project.name,
      max_parallel_tasks: max,
    })
  const templates = []
  for (let i = 0; i < TEMPLATES; i += 1) templates.push(await bench.template('noop.sh'))
  const blockerTemplate = await bench.template('block.sh')

  const ws = await bench.socket()
  const finished = new Map()
  let allDone
  const drained = new Promise((resolve) => (allDone = resolve))
  const ids = new Set()
  ws.on('message', (data) => {
    const m = JSON.parse(String(data))
    if (m.type !== 'update' || !FINISHED.includes(m.status) || !ids.has(m.task_id)) return
    if (finished.has(m.task_id)) return
    finished.set(m.task_id, m.status)
    if (finished.size === COUNT) allDone()
  })

  await setProjectLimit(1)
  const blocker = await bench.run(blockerTemplate)
  for (let started = false; !started;) {
    const task = await bench.api('GET', `${projectPath}/tasks/${blocker.id}`)
    started = task.status === 'running'
    if (!started) await new Promise((r) => setTimeout(r, 20))
  }
  for (let i = 0; i < COUNT; i += 1) {
    const task = await bench.run(templates[i % TEMPLATES])
    ids.add(task.id)
  }
  await setProjectLimit(0)

  const before = processStats(bench.pid)
  const t0 = performance.now()
  await bench.api('POST', `${projectPath}/tasks/${blocker.id}/stop`, { force: true })
  await drained
  const seconds = (performance.now() - t0) / 1000
  const after = processStats(bench.pid)
  ws.close()

  const floor = await spawnRate(TEMPLATES)
  const failed = [...finished.values()].filter((s) => s !== 'success').length
  console.log(`tasks: ${COUNT} on ${TEMPLATES} templates (not success: ${failed})`)
  console.log(
    `drain: ${(COUNT / seconds).toFixed(0)} tasks/s (${(seconds * 1000).toFixed(0)} ms); ` +
      `raw spawn of the same bash script, ${TEMPLATES} at a time: ${floor.toFixed(0)} processes/s`,
  )
  console.log(`server CPU during the drain: ${(after.cpuSeconds - before.cpuSeconds).toFixed(1)} s`)
} finally {
  await bench.stop()
}
