#!/usr/bin/env node
// The template list's first render with 10 templates and with 1,000: the page must stay as
// fast, since it shows one page of them (50 by default) however many there are. Also prints a
// 500-template page, what every load cost when the list showed all templates at once.
// "First render" is the moment, after navigation starts, at which the first template's row is
// painted (median of BENCH_RUNS loads in a fresh browser context each, default 5).
//
// Usage (after `npm run build`): node bench/templates-list-budget.mjs
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_RUNS.

/* global document, window, MutationObserver, requestAnimationFrame */

import { chromium } from '@playwright/test'
import { median, startBench } from './task-common.mjs'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Number(process.env.BENCH_RUNS ?? 5) || 5
const FIRST = 'tpl 0001'

/** A project holding `count` templates named tpl 0001…; answers its id. */
async function projectWith(bench, count) {
  const project = await bench.api('POST', '/api/projects', { name: `List of ${count}` })
  const p = `/api/project/${project.id}`
  const keys = await bench.api('GET', `${p}/keys`)
  const none = keys.find((k) => k.name === 'None')
  const repository = await bench.api('POST', `${p}/repositories`, {
    name: 'scripts',
    project_id: project.id,
    git_url: '/tmp',
    git_branch: '',
    ssh_key_id: none.id,
  })
  for (let i = 1; i <= count; i += 1) {
    await bench.api('POST', `${p}/templates`, {
      name: `tpl ${String(i).padStart(4, '0')}`,
      project_id: project.id,
      app: 'bash',
      playbook: 'run.sh',
      repository_id: repository.id,
    })
  }
  return project.id
}

/** Records when a link named `name` is first painted. */
function observe(name) {
  const found = () => [...document.querySelectorAll('a')].some((a) => a.textContent === name)
  const observer = new MutationObserver(() => {
    if (!found()) return
    observer.disconnect()
    requestAnimationFrame(() => {
      window.__firstRender = performance.now()
    })
  })
  observer.observe(document, { childList: true, subtree: true, characterData: true })
}

async function firstRender(browser, bench, path) {
  const [name, value] = bench.cookie.split('=')
  const times = []
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext()
    await context.addCookies([{ name, value, domain: '127.0.0.1', path: '/', httpOnly: true }])
    const page = await context.newPage()
    await page.addInitScript(observe, FIRST)
    await page.goto(`${bench.url}${path}`)
    await page
      .waitForFunction(() => typeof window.__firstRender === 'number', null, { timeout: 60_000 })
      .catch(async (error) => {
        throw new Error(
          `${path}: no "${FIRST}" at ${page.url()}: ${(await page.locator('body').innerText()).slice(0, 300)}`,
          { cause: error },
        )
      })
    times.push(await page.evaluate(() => window.__firstRender))
    await context.close()
  }
  return median(times)
}

const bench = await startBench({ 'run.sh': 'true\n' })
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
})
try {
  const small = await projectWith(bench, 10)
  const big = await projectWith(bench, 1000)
  const rows = [
    ['10 templates', `/project/${small}/templates`],
    ['1,000 templates (first page of 50)', `/project/${big}/templates`],
    ['1,000 templates, a page of 500', `/project/${big}/templates?size=500`],
  ]
  console.log(`Template list first render, median of ${RUNS} cold loads`)
  let floor
  for (const [label, path] of rows) {
    const ms = await firstRender(browser, bench, path)
    floor ??= ms
    console.log(
      `  ${label.padEnd(36)} ${Math.round(ms)} ms  (${(ms / floor).toFixed(2)}× the 10-template page)`,
    )
  }
} finally {
  await browser.close()
  await bench.stop()
}
