#!/usr/bin/env node
// Runner start latency: from the create request to the task's first own output line over the
// websocket, for a `true`-like bash script run on a runner process on the same machine (its
// template requires the runner's tag), beside the same script run by the server itself. Tasks
// run one after another. Prints median and p99 of each.
//
// Usage (after `npm run build`): node bench/runner-latency.mjs   (BENCH_TASKS, default 200)

import { performance } from 'node:perf_hooks'
import { startRunner } from './runner-common.mjs'
import { median, percentile, startBench } from './task-common.mjs'

const COUNT = Number(process.env.BENCH_TASKS ?? 200) || 200
const FINISHED = ['success', 'error', 'stopped']
const bench = await startBench({ 'mark.sh': 'echo bench-mark\n' })
let runner
try {
  runner = await startRunner(bench, 'bench')
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

  const measure = async (templateId) => {
    const firstLine = []
    const total = []
    let failed = 0
    for (let i = 0; i < COUNT; i += 1) {
      const t0 = performance.now()
      const task = await bench.run(templateId)
      const entry = entryOf(task.id)
      const status = await entry.done
      if (status !== 'success') failed += 1
      if (entry.first !== undefined) firstLine.push(entry.first - t0)
      total.push(performance.now() - t0)
      seen.delete(task.id)
    }
    return { firstLine, total, failed }
  }

  const remoteTemplate = await bench.api('POST', `/api/project/${bench.project.id}/templates`, {
    name: 'bench-runner',
    project_id: bench.project.id,
    app: 'bash',
    playbook: 'mark.sh',
    repository_id: (await bench.api('GET', `/api/project/${bench.project.id}/repositories`))[0].id,
    runner_tag: 'bench',
  })
  const remote = await measure(remoteTemplate.id)
  const local = await measure(await bench.template('mark.sh'))
  ws.close()

  const f = (v) => `${v.toFixed(1)} ms`
  const show = (label, r) => {
    console.log(`${label}: ${COUNT} tasks (failed: ${r.failed})`)
    console.log(
      `  create → first output line: median ${f(median(r.firstLine))}, p99 ${f(percentile(r.firstLine, 99))}`,
    )
    console.log(
      `  create → finished:          median ${f(median(r.total))}, p99 ${f(percentile(r.total, 99))}`,
    )
  }
  show('through a runner (long poll)', remote)
  show('on the server itself', local)
} finally {
  await runner?.stop()
  await bench.stop()
}
