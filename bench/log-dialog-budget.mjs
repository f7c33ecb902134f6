#!/usr/bin/env node
// The task log dialog's budget in Chromium: (a) the dialog of a finished 100,000-line task
// becomes interactive in under 1 s; (b) while a live task prints 5,000 lines a second, the
// page's main thread has no long task over 50 ms. Prints the figures; a benchmark, not a test.
// In the open dialog it also jumps to the log's start, middle and end and times each until its
// line is on screen and the page interactive (the dialog reads the log page by page).
//
// Usage (after `npm run build`): node bench/log-dialog-budget.mjs
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_RUNS (default 3), BENCH_LINES
// (lines of the finished task, default 100,000; e.g. 1000000 for a million-line log).

/* global document, window, requestAnimationFrame */

import { cpus, loadavg } from 'node:os'
import { chromium } from '@playwright/test'
import { median, startBench } from './task-common.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3) || 3)
const BUDGET = { openMs: 1000, longTaskMs: 50 }
const LINES = Number(process.env.BENCH_LINES ?? 100_000) || 100_000
const LIVE_SECONDS = 8
const LIVE_RATE = 5_000

const SCRIPTS = {
  'flood.sh': `seq 1 ${LINES} | sed "s/^/line /"\n`,
  // One burst of LIVE_RATE lines every second, each burst written at once.
  'live.sh': `for s in $(seq 1 ${LIVE_SECONDS}); do seq 1 ${LIVE_RATE} | sed "s/^/live $s /"; sleep 1; done\necho live done\n`,
}

async function waitFinished(bench, taskId) {
  for (;;) {
    const task = await bench.api('GET', `/api/project/${bench.project.id}/tasks/${taskId}`)
    if (['success', 'error', 'stopped'].includes(task.status)) return task
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** Collects the page's long tasks (over 50 ms of main-thread work) into window.__longTasks. */
function observeLongTasks() {
  window.__longTasks = []
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration)
  }).observe({ type: 'longtask', buffered: false })
}

async function signedInPage(browser, bench) {
  const cookie = bench.cookie
  const context = await browser.newContext()
  const [name, value] = cookie.split('=')
  await context.addCookies([{ name, value, url: bench.url }])
  const page = await context.newPage()
  await page.addInitScript(observeLongTasks)
  return { context, page }
}

/** Resolves, in the page, once a frame is drawn and a task queued after it has run. */
const nextInteractive = () =>
  new Promise((resolve) =>
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0)),
  )

/** Waits until a log row reads exactly `text`. */
async function waitForRow(page, text) {
  await page.waitForFunction(
    (wanted) =>
      [...document.querySelectorAll('[role="log"] [role="listitem"]')].some(
        (row) => row.textContent === wanted,
      ),
    text,
    { timeout: 60_000, polling: 'raf' },
  )
}

/** Scrolls the open log to a fraction of its height; ms until `text` is shown and interactive. */
async function jump(page, fraction, text) {
  const start = await page.evaluate((at) => {
    const log = document.querySelector('[role="log"]')
    log.scrollTop = (log.scrollHeight - log.clientHeight) * at
    return performance.now()
  }, fraction)
  await waitForRow(page, text)
  return (await page.evaluate(nextInteractive)) - start
}

/** From the click on the task link to the last line on screen and the page idle again. */
async function measureOpen(browser, bench, taskId) {
  const { context, page } = await signedInPage(browser, bench)
  await page.goto(`${bench.url}/project/${bench.project.id}/history`)
  const link = page.locator(`tr[data-task-id="${taskId}"] a[href$="?t=${taskId}"]`)
  await link.waitFor()
  await page.evaluate(() => {
    window.__longTasks = []
  })
  const start = await page.evaluate(() => performance.now())
  await link.click()
  await page.waitForFunction(
    (last) =>
      [...document.querySelectorAll('[role="log"] [role="listitem"]')].some((row) =>
        row.textContent.includes(last),
      ),
    `line ${LINES}`,
    { timeout: 60_000, polling: 'raf' },
  )
  const lastLine = await page.evaluate(() => performance.now())
  // Interactive: a frame is drawn and a task queued after it runs, so input would be handled.
  const interactive = await page.evaluate(nextInteractive)
  const rows = await page.locator('[role="log"] [role="listitem"]').count()
  const longTasks = await page.evaluate(() => window.__longTasks)
  // The flood's lines are "line 1" … "line N"; the log's first rows are the server's own.
  const toStart = await jump(page, 0, 'line 1')
  const toMiddle = await jump(page, 0.5, `line ${Math.round(LINES / 2)}`).catch(() => NaN)
  const toEnd = await jump(page, 1, `line ${LINES}`)
  await context.close()
  return {
    lastLine: lastLine - start,
    interactive: interactive - start,
    rows,
    longest: Math.max(0, ...longTasks),
    toStart,
    toMiddle,
    toEnd,
  }
}

/** Long tasks while the dialog follows a task printing LIVE_RATE lines a second. */
async function measureLive(browser, bench, templateId) {
  const { context, page } = await signedInPage(browser, bench)
  await page.goto(`${bench.url}/project/${bench.project.id}/history`)
  await page.locator('h1').first().waitFor()
  const task = await bench.run(templateId)
  await page.goto(`${bench.url}/project/${bench.project.id}/history?t=${task.id}`)
  await page.locator('[role="log"]').waitFor()
  await page.evaluate(() => {
    window.__longTasks = []
  })
  await waitFinished(bench, task.id)
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[role="log"] [role="listitem"]')].some((row) =>
        row.textContent.includes('live done'),
      ),
    null,
    { timeout: 30_000 },
  )
  const longTasks = await page.evaluate(() => window.__longTasks)
  await context.close()
  return {
    count: longTasks.length,
    longest: Math.max(0, ...longTasks),
    over: longTasks.filter((d) => d > BUDGET.longTaskMs).length,
  }
}

const bench = await startBench(SCRIPTS)
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  const flood = await bench.template('flood.sh')
  const live = await bench.template('live.sh')
  const finished = await bench.run(flood)
  await waitFinished(bench, finished.id)

  console.log(`machine: ${cpus().length} CPUs, load ${loadavg()[0].toFixed(2)}`)
  const opens = []
  for (let run = 0; run < RUNS; run += 1) opens.push(await measureOpen(browser, bench, finished.id))
  const fmt = (ms) => `${ms.toFixed(0)} ms`
  console.log(`(a) log dialog of a finished ${LINES.toLocaleString('en')}-line task, ${RUNS} opens`)
  console.log(`    last line on screen: median ${fmt(median(opens.map((o) => o.lastLine)))}`)
  const interactive = median(opens.map((o) => o.interactive))
  console.log(
    `    interactive:         median ${fmt(interactive)} (budget < ${BUDGET.openMs} ms: ${
      interactive < BUDGET.openMs ? 'within' : 'over'
    })`,
  )
  console.log(`    rows in the document: ${opens[0].rows} of ${LINES.toLocaleString('en')}`)
  for (const [label, key] of [
    ['jump to the start', 'toStart'],
    ['jump to the middle', 'toMiddle'],
    ['jump to the end', 'toEnd'],
  ]) {
    console.log(
      `    ${label}, line on screen and interactive: median ${fmt(median(opens.map((o) => o[key])))}`,
    )
  }
  console.log(
    `    longest main-thread task while opening: ${fmt(Math.max(...opens.map((o) => o.longest)))}`,
  )

  const liveRun = await measureLive(browser, bench, live)
  console.log(
    `(b) live task printing ${LIVE_RATE.toLocaleString('en')} lines/s for ${LIVE_SECONDS} s`,
  )
  console.log(
    `    long tasks: ${liveRun.count}, longest ${fmt(liveRun.longest)}, over ${BUDGET.longTaskMs} ms: ${liveRun.over} (budget 0: ${
      liveRun.over === 0 ? 'within' : 'over'
    })`,
  )
} finally {
  await browser.close()
  await bench.stop()
}
