import { execFile } from 'node:child_process'
import { getInfo, getOptions, ping, setOption } from '@flagman/contract'
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
  }))
  mount(app, getOptions, async ({ db }) => listOptions(db))
  mount(app, setOption, async ({ db, body }) => storeOption(db, body))
}
