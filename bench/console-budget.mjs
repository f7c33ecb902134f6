#!/usr/bin/env node
// The console's performance budget: initial JavaScript of the sign-in route (gzipped) and the
// project page's first render on a local server. Prints the figures next to the budget and
// always exits 0 when it could measure: wall-clock figures are not a pass/fail test.
//
// Usage (after `npm run build`): node bench/console-budget.mjs
// Environment: CHROMIUM_PATH (default /usr/bin/chromium), BENCH_RUNS (default 5).

/* global document, window, MutationObserver, requestAnimationFrame */

import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const DIST = join(ROOT, 'packages/web/dist')
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5) || 5)
const BUDGET = { signInJsKb: 300, firstRenderMs: 1000 }
const ADMIN = { login: 'admin', password: 'bench-admin-password' }
const PROJECT_NAME = 'Budget Project'

const gzipKb = (buffer) => gzipSync(buffer).length / 1024
const rawKb = (buffer) => buffer.length / 1024

function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** Scripts the built index.html loads before any route code: the entry and its preloads. */
function entryScripts() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8')
  const urls = new Set()
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)) urls.add(match[1])
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+\.js)"/g)) {
    urls.add(match[1])
  }
  return [...urls]
}

async function startServer() {
  const port = await freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-bench-'))
  const child = spawn(process.execPath, [join(ROOT, 'bin/flagman'), 'server'], {
    cwd: ROOT,
    env: {
      ...process.env,
      FLAGMAN_HOST: '127.0.0.1',
      FLAGMAN_PORT: String(port),
      FLAGMAN_DATA_DIR: dataDir,
      FLAGMAN_DB: '',
      FLAGMAN_LOG_LEVEL: 'warn',
      // Stops at once: no load balancer waits on a test server.
      FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
      FLAGMAN_ADMIN_LOGIN: ADMIN.login,
      FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
      FLAGMAN_WEB_DIR: DIST,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = () => {
    if (child.exitCode === null) child.kill('SIGTERM')
    rmSync(dataDir, { recursive: true, force: true })
  }
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    try {
      if ((await fetch(`${baseUrl}/api/ping`)).ok) return { baseUrl, stop }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  stop()
  throw new Error(`the server did not start on ${baseUrl}\n${stderr}`)
}

async function api(baseUrl, method, path, { cookie, body } = {}) {
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      Accept: 'application/json',
      ...(body ? { 'Content-Type': 'application/json' } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`)
  return response
}

/** (a) JavaScript the browser fetches to show /auth/login, with nobody signed in. */
async function measureSignInScripts(browser, baseUrl) {
  const context = await browser.newContext()
  const page = await context.newPage()
  const scripts = new Map()
  page.on('response', (response) => {
    const url = new URL(response.url())
    if (url.origin !== baseUrl || !url.pathname.endsWith('.js')) return
    scripts.set(
      url.pathname,
      response.body().catch(() => Buffer.alloc(0)),
    )
  })
  await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'networkidle' })
  await page.locator('input[autocomplete="username"]').waitFor()
  const bodies = new Map()
  for (const [path, body] of scripts) bodies.set(path, await body)
  await context.close()

  const entry = new Set(entryScripts())
  const sum = (paths, size) => paths.reduce((total, path) => total + size(bodies.get(path)), 0)
  const initial = [...bodies.keys()].filter((path) => entry.has(path))
  const lazy = [...bodies.keys()].filter((path) => !entry.has(path))
  const missing = [...entry].filter((path) => !bodies.has(path))
  for (const path of missing) bodies.set(path, readFileSync(join(DIST, path)))
  initial.push(...missing)
  return {
    initial: { files: initial.length, raw: sum(initial, rawKb), gzip: sum(initial, gzipKb) },
    lazy: { files: lazy.length, raw: sum(lazy, rawKb), gzip: sum(lazy, gzipKb) },
    largest: [...bodies.entries()]
      .map(([path, body]) => ({ path, gzip: gzipKb(body) }))
      .sort((a, b) => b.gzip - a.gzip)
      .slice(0, 5),
  }
}

/** (b) From navigation start to the project dashboard's heading on screen, signed in. */
async function measureFirstRender(browser, baseUrl) {
  const login = await api(baseUrl, 'POST', '/api/auth/login', {
    body: { auth: ADMIN.login, password: ADMIN.password },
  })
  const cookie = /(?<!\w)semaphore=[^;]+/.exec(login.headers.get('set-cookie') ?? '')?.[0]
  if (!cookie) throw new Error('no session cookie')
  const created = await api(baseUrl, 'POST', '/api/projects', {
    cookie,
    body: { name: PROJECT_NAME },
  })
  const project = await created.json()
  const [name, value] = cookie.split('=')
  const url = `${baseUrl}/project/${project.id}`

  // Records when a level-1 heading with the project's name is first painted.
  const observe = (projectName) => {
    const found = () =>
      [...document.querySelectorAll('h1')].some((h1) => h1.textContent === projectName)
    const observer = new MutationObserver(() => {
      if (!found()) return
      observer.disconnect()
      requestAnimationFrame(() => {
        window.__firstRender = performance.now()
      })
    })
    observer.observe(document, { childList: true, subtree: true, characterData: true })
  }

  async function load(context) {
    const page = await context.newPage()
    await page.addInitScript(observe, PROJECT_NAME)
    await page.goto(url)
    await page.waitForFunction(() => typeof window.__firstRender === 'number', null, {
      timeout: 30_000,
    })
    const result = await page.evaluate(() => {
      const api = performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.startsWith('/api/'))
      return {
        render: window.__firstRender,
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        firstApi: Math.min(...api.map((entry) => entry.startTime)),
        lastApi: Math.max(...api.map((entry) => entry.responseEnd)),
        scripts: performance
          .getEntriesByType('resource')
          .filter((entry) => entry.initiatorType === 'script' || entry.name.endsWith('.js')).length,
      }
    })
    await page.close()
    return result
  }

  const cookieFor = { name, value, domain: '127.0.0.1', path: '/', httpOnly: true }
  const cold = []
  for (let run = 0; run < RUNS; run += 1) {
    // A new browser context each time: empty cache, as on a first visit.
    const context = await browser.newContext()
    await context.addCookies([cookieFor])
    cold.push(await load(context))
    await context.close()
  }
  const warmContext = await browser.newContext()
  await warmContext.addCookies([cookieFor])
  await load(warmContext)
  const warm = []
  for (let run = 0; run < RUNS; run += 1) warm.push(await load(warmContext))
  await warmContext.close()
  return { cold, warm }
}

function printTable(rows) {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)))
  const line = (row) => row.map((cell, column) => cell.padEnd(widths[column])).join('  ')
  console.log(line(rows[0]))
  console.log(widths.map((width) => '-'.repeat(width)).join('  '))
  for (const row of rows.slice(1)) console.log(line(row))
}

async function main() {
  if (!existsSync(join(DIST, 'index.html'))) {
    console.error('The console is not built: run `npm run build` first.')
    process.exit(1)
  }
  if (!existsSync(CHROMIUM)) {
    console.error(`No Chromium at ${CHROMIUM} (set CHROMIUM_PATH).`)
    process.exit(1)
  }
  const server = await startServer()
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  })
  try {
    const scripts = await measureSignInScripts(browser, server.baseUrl)
    const render = await measureFirstRender(browser, server.baseUrl)
    const signInGzip = scripts.initial.gzip + scripts.lazy.gzip
    const coldMs = median(render.cold.map((run) => run.render))
    const warmMs = median(render.warm.map((run) => run.render))
    const fcpMs = median(render.cold.map((run) => run.fcp))
    const kb = (value) => `${value.toFixed(1)} KB`
    const ms = (value) => `${Math.round(value)} ms`
    const verdict = (ok) => (ok ? 'within' : 'OVER')

    const load = loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')
    console.log(
      `Console budget: Chromium ${browser.version()}, ${cpus().length} CPUs, load average ${load}\n`,
    )
    printTable([
      ['Measure', 'Value', 'Budget', 'Result'],
      [
        `Sign-in JS, entry + ${scripts.initial.files - 1} preloads (gzip)`,
        kb(scripts.initial.gzip),
        '',
        '',
      ],
      [`Sign-in JS, ${scripts.lazy.files} lazy chunks (gzip)`, kb(scripts.lazy.gzip), '', ''],
      [
        'Sign-in JS, total (gzip)',
        kb(signInGzip),
        `<= ${BUDGET.signInJsKb} KB`,
        verdict(signInGzip <= BUDGET.signInJsKb),
      ],
      ['Sign-in JS, total (uncompressed)', kb(scripts.initial.raw + scripts.lazy.raw), '', ''],
      [
        `Project page first render, cold cache (median of ${RUNS})`,
        ms(coldMs),
        `< ${BUDGET.firstRenderMs} ms`,
        verdict(coldMs < BUDGET.firstRenderMs),
      ],
      ['  first contentful paint (median)', ms(fcpMs), '', ''],
      [
        '  first API request sent (median)',
        ms(median(render.cold.map((run) => run.firstApi))),
        '',
        '',
      ],
      [
        '  last API answer received (median)',
        ms(median(render.cold.map((run) => run.lastApi))),
        '',
        '',
      ],
      ['  scripts loaded', String(render.cold[0]?.scripts ?? 0), '', ''],
      [`Project page first render, warm cache (median of ${RUNS})`, ms(warmMs), '', ''],
    ])
    console.log(
      `\nCold runs: ${render.cold.map((run) => ms(run.render)).join(', ')}` +
        `\nWarm runs: ${render.warm.map((run) => ms(run.render)).join(', ')}` +
        `\nLargest sign-in scripts (gzip): ${scripts.largest
          .map((file) => `${file.path.replace('/assets/', '')} ${kb(file.gzip)}`)
          .join(', ')}`,
    )
  } finally {
    await browser.close()
    server.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
