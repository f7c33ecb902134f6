// Shared set-up of the task benchmarks: a real server (bin/flagman server) on a temporary
// data folder, an administrator session, a project whose repository is a local git folder.

import { execFileSync, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ADMIN = { login: 'admin', password: 'bench-admin-password' }

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}

/** Server CPU seconds (user + system) and resident memory in MB, from /proc. */
export function processStats(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  const ticks = Number(stat[11]) + Number(stat[12])
  const rssPages = Number(stat[21])
  return { cpuSeconds: ticks / 100, rssMb: (rssPages * 4096) / 1024 / 1024 }
}

/** A git repository in the temp folder holding `scripts`, committed on branch main. */
export function benchRepository(scripts) {
  const repo = mkdtempSync(join(tmpdir(), 'flagman-bench-repo-'))
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(repo, name), text)
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'pipe',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@example.test',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@example.test',
      },
    })
  git('init', '-q', '-b', 'main')
  git('add', '.')
  git('commit', '-q', '-m', 'bench')
  return repo
}

/**
 * `bin/flagman server` on a free port and a temporary data folder, with the bench's
 * administrator; answers once it listens.
 */
export async function spawnServer(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'flagman-bench-'))
  let log = ''
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean)
  // FLAGMAN_BIN points at another build (e.g. an older checkout) to measure it the same way.
  const bin = process.env.FLAGMAN_BIN ?? join(ROOT, 'bin/flagman')
  const child = spawn(process.execPath, [...nodeArgs, bin, 'server'], {
    env: {
      ...process.env,
      FLAGMAN_HOST: '127.0.0.1',
      FLAGMAN_PORT: '0',
      FLAGMAN_DATA_DIR: dataDir,
      FLAGMAN_LOG_LEVEL: 'warn',
      // Stops at once: no load balancer waits on a test server.
      FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '0',
      FLAGMAN_ADMIN_LOGIN: ADMIN.login,
      FLAGMAN_ADMIN_PASSWORD: ADMIN.password,
      ...env,
    },
    stdio: 'pipe',
  })
  child.stdout.on('data', (c) => (log += c))
  child.stderr.on('data', (c) => (log += c))
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start\n${log}`)), 30_000)
    child.stdout.on('data', () => {
      const m = /is listening on (http:\/\/\S+)/.exec(log)
      if (m) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
  })
  return {
    url,
    pid: child.pid,
    dataDir,
    signal: (name) => child.kill(name),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      await exited
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** Signs in as the bench's administrator; answers the session cookie. */
export async function signIn(url) {
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: ADMIN.login, password: ADMIN.password }),
  })
  return /(?<!\w)semaphore=[^;]+/.exec(login.headers.get('set-cookie') ?? '')[0]
}

/** Calls the API at `url` with the session `cookie`; answers the parsed body, throws on 4xx/5xx. */
export function apiOf(url, cookie) {
  return async (method, path, body) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { Cookie: cookie, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
}

/** A websocket client of `/api/ws` at `url` with the session `cookie`, once it is open. */
export function socketOf(url, cookie) {
  return new Promise((resolve, reject) => {
    // The client is a measuring instrument: it must not be slower than the server, so it
    // skips the UTF-8 check of each message (the log lines are ASCII).
    const ws = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`, {
      headers: { Cookie: cookie },
      skipUTF8Validation: true,
    })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

/**
 * The bench's project on the server at `url`: the Bash app turned on, a project named
 * `name` with the repository `repo`, and helpers to add Bash templates and run them.
 */
export async function benchProject(url, cookie, repo, name = 'Bench') {
  const api = apiOf(url, cookie)
  await api('POST', '/api/apps/bash/active', { active: true })
  const project = await api('POST', '/api/projects', { name })
  const keys = await api('GET', `/api/project/${project.id}/keys`)
  const none = keys.find((k) => k.name === 'None')
  const repository = await api('POST', `/api/project/${project.id}/repositories`, {
    name: 'bench',
    project_id: project.id,
    git_url: repo,
    git_branch: '',
    ssh_key_id: none.id,
  })
  let n = 0
  const template = async (playbook) =>
    (
      await api('POST', `/api/project/${project.id}/templates`, {
        name: `bench-${(n += 1)}`,
        project_id: project.id,
        app: 'bash',
        playbook,
        repository_id: repository.id,
      })
    ).id
  const run = (templateId) =>
    api('POST', `/api/project/${project.id}/tasks`, { template_id: templateId })
  return { api, project, template, run }
}

export async function startBench(scripts, env = {}) {
  const repo = benchRepository(scripts)
  const server = await spawnServer(env)
  const { url, dataDir } = server
  const cookie = await signIn(url)
  const { api, project, template, run } = await benchProject(url, cookie, repo)
  return {
    url,
    cookie,
    pid: server.pid,
    dataDir,
    project,
    api,
    template,
    run,
    socket: () => socketOf(url, cookie),
    async stop() {
      await server.stop()
      rmSync(repo, { recursive: true, force: true })
    },
  }
}
