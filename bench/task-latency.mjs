#!/usr/bin/env node
// Task start latency: from the create request to the task's first own output line over the
// websocket, for a one-line bash script, run one after another. Prints median and p99 beside
// the floor measured in the same run (spawning the same script and reading its first line,
// from this small process), and the median of each phase of the tasks' start timings.
//
// Usage (after `npm run build`): node bench/task-latency.mjs   (BENCH_TASKS, default 200)
// FLAGMAN_BIN=<other checkout>/bin/flagman measures another build the same way.

import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { median, percentile, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_TASKS ?? 200) || 200
const FINISHED = ['success', 'error', 'stopped']
const MARK = 'echo bench-mark\n'

/** Milliseconds from spawning `bash mark.sh` to its first output line, COUNT times. */
async function spawnFloor() {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-bench-spawn-'))
  writeFileSync(join(dir, 'mark.sh'), MARK)
  const times = []
  for (let i = 0; i < COUNT; i += 1) {
    const t0 = performance.now()
    await new Promise((resolve, reject) => {
      const child = spawn('bash', [join(dir, 'mark.sh')], { cwd: dir, stdio: 'pipe' })
      child.once('error', reject)
      child.stdout.once('data', () => times.push(performance.now() - t0))
      child.once('close', resolve)
    })
  }
  rmSync(dir, { recursive: true, force: true })
  return times
}

const bench = await startBench({ 'mark.sh': MARK })
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
  const phases = new Map()
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
    const stored = await bench.api('GET', `/api/project/${bench.project.id}/tasks/${task.id}`)
    for (const [phase, ms] of Object.entries(stored.start_timings ?? {})) {
      if (!phases.has(phase)) phases.set(phase, [])
      phases.get(phase).push(ms)
    }
  }
  ws.close()
  const floor = await spawnFloor()
  const f = (v) => `${v.toFixed(1)} ms`
  console.log(`tasks: ${COUNT} (failed: ${failed})`)
  console.log(
    `create → first output line: median ${f(median(firstLine))}, p99 ${f(percentile(firstLine, 99))}`,
  )
  console.log(
    `create → finished:          median ${f(median(total))}, p99 ${f(percentile(total, 99))}`,
  )
  console.log(
    `floor, spawn → first line:  median ${f(median(floor))}, p99 ${f(percentile(floor, 99))}`,
  )
  if (phases.size === 0) console.log('start timings: not reported by this build')
  for (const [phase, values] of phases) {
    console.log(`start timings, ${phase.padEnd(24)} median ${median(values)} ms`)
  }
} finally {
  await bench.stop()
}
