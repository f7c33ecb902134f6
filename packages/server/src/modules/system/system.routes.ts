import { execFile } from 'node:child_process'
import {
  getInfo,
  getOptions,
  healthLive,
  healthReady,
  ping,
  setOption,
  type Health,
} from '@flagman/contract'
import { pendingMigrations } from '@flagman/db'
import { sql } from 'kysely'
import type { FastifyInstance } from 'fastify'
import { mount } from '../../platform/router.js'
import { authMethods } from '../auth/totp.service.js'
import { anyRunner } from '../runners/index.js'
import { VERSION } from '../../version.js'
import { listOptions, setOption as storeOption } from './options.service.js'

let ansibleVersion: Promise<string> | null = null

/** `ansible --version`, asked once; empty when Ansible is not installed. */
function readAnsibleVersion(): Promise<string> {
  ansibleVersion ??= new Promise((resolve) => {
    execFile('ansible', ['--version'], { timeout: 10_000 }, (error, stdout) => {
      resolve(error ? '' : stdout.trim())
    })
  })
  return ansibleVersion
}

export function systemRoutes(app: FastifyInstance): void {
  mount(app, ping, async ({ reply }) => {
    reply.type('text/plain; charset=utf-8')
    return reply.send('pong')
  })
  const instance = () => (app.hasDecorator('instance') ? app.instance.id : '')
  mount(app, healthLive, async () => ({
    status: 'ok' as const,
    instance: instance(),
    version: VERSION,
  }))
  mount(app, healthReady, async ({ reply }) => {
    const checks = await readiness(app)
    const ready = Object.values(checks).every((check) => check === 'ok')
    const body: Health = {
      status: ready ? 'ok' : 'unavailable',
      instance: instance(),
      version: VERSION,
      checks,
    }
    if (ready) return body
    return reply.code(503).send(body)
  })
  mount(app, getInfo, async ({ db, config, request }) => ({
    version: VERSION,
    ansible: await readAnsibleVersion(),
    // The port actually listened on: FLAGMAN_PORT=0 picks a free one.
    web_host: config.webHost || `http://localhost:${request.socket.localPort ?? config.port}`,
    // Runners in use: the console then shows where each task runs.
    use_remote_runner: await anyRunner(db.kysely),
    auth_methods: authMethods(config),
    premium_features: { project_runners: true, terraform_backend: true },
    schedule_timezone: config.scheduleTimezone,
    password_min_length: config.passwordMinLength,
    task_retention_days: config.taskRetentionDays,
    event_retention_days: config.eventRetentionDays,
  }))
  mount(app, getOptions, async ({ db }) => listOptions(db))
  mount(app, setOption, async ({ db, body }) => storeOption(db, body))
}

/** Each readiness check: `ok`, or what is wrong. */
async function readiness(app: FastifyInstance): Promise<Record<string, string>> {
  const checks: Record<string, string> = {}
  try {
    await sql`select 1`.execute(app.db.kysely)
    checks.database = 'ok'
  } catch (error) {
    // The answer is public: the reason (hosts, users) goes to the log only.
    app.log.warn({ err: error }, 'Readiness: the database does not answer')
    checks.database = 'unreachable'
    return { ...checks, migrations: 'unknown', instance: 'unknown' }
  }
  try {
    const pending = await pendingMigrations(app.db)
    checks.migrations = pending.length === 0 ? 'ok' : `${pending.length} pending`
  } catch (error) {
    app.log.warn({ err: error }, 'Readiness: the migrations could not be read')
    checks.migrations = 'unreadable'
  }
  checks.instance =
    app.hasDecorator('instance') && app.instance.registered ? 'ok' : 'not registered'
  if (app.hasDecorator('tasks') && !app.tasks.isAccepting) checks.instance = 'stopping'
  return checks
}
