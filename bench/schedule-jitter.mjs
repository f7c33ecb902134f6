#!/usr/bin/env node
// Schedule firing jitter on the real clock: many `* * * * *` schedules, each of its own
// `true`-like bash template (so no task waits for another of its template) and no limit on
// parallel tasks, left to fire for a few minutes. For every run the clock recorded, prints
// median, p99 and max of due time → run fired and of due time → the task's `created` time.
//
// Usage (after `npm run build`): node bench/schedule-jitter.mjs
//   BENCH_SCHEDULES (default 250), BENCH_MINUTES (default 2): firings = schedules × minutes

import { median, percentile, startBench } from './task-common.mjs'

const SCHEDULES = Number(process.env.BENCH_SCHEDULES ?? 250) || 250
const MINUTES = Number(process.env.BENCH_MINUTES ?? 2) || 2
/** Time after the last due minute for the clock to create every task of it. */
const SETTLE_MS = 20_000

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

const bench = await startBench({ 'true.sh': 'true\n' }, { FLAGMAN_MAX_PARALLEL_TASKS: '0' })
try {
  const pid = bench.project.id
  const base = `/api/project/${pid}`
  const ids = []
  for (let i = 0; i < SCHEDULES; i += 1) {
    const templateId = await bench.template('true.sh')
    const schedule = await bench.api('POST', `${base}/schedules`, {
      name: `every minute ${i + 1}`,
      project_id: pid,
      template_id: templateId,
      cron_format: '* * * * *',
      active: true,
    })
    ids.push(schedule.id)
  }
  // Every schedule exists from here on, so each is due at the next MINUTES minute starts.
  const ready = Date.now()
  const firstDue = Math.ceil(ready / 60_000) * 60_000
  const lastDue = firstDue + (MINUTES - 1) * 60_000
  console.log(
    `${SCHEDULES} schedules ready; waiting ${((lastDue + SETTLE_MS - ready) / 1000).toFixed(0)} s for ${MINUTES} firings each`,
  )
  await sleep(lastDue + SETTLE_MS - Date.now())
  for (const id of ids) {
    await bench.api('PUT', `${base}/schedules/${id}/active`, { active: false })
  }

  const fired = []
  const created = []
  const outcomes = new Map()
  for (const id of ids) {
    const runs = await bench.api('GET', `${base}/schedules/${id}/runs`)
    for (const run of runs) {
      const due = Date.parse(run.due)
      if (due < firstDue || due > lastDue) continue
      outcomes.set(run.outcome, (outcomes.get(run.outcome) ?? 0) + 1)
      fired.push(Date.parse(run.fired) - due)
      if (run.task_id !== null) {
        const task = await bench.api('GET', `${base}/tasks/${run.task_id}`)
        created.push(Date.parse(task.created) - due)
      }
    }
  }
  const f = (v) => (v === undefined ? '–' : `${v.toFixed(0)} ms`)
  const line = (values) =>
    `median ${f(median(values))}, p99 ${f(percentile(values, 99))}, max ${f(Math.max(...values))}`
  console.log(
    `firings: ${fired.length} of ${SCHEDULES * MINUTES} expected (${[...outcomes].map(([k, v]) => `${k} ${v}`).join(', ')})`,
  )
  console.log(`due → run fired:    ${line(fired)}`)
  console.log(`due → task created: ${line(created)} (${created.length} tasks)`)
} finally {
  await bench.stop()
}
