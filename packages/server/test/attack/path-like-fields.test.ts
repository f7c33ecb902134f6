import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROUTES, type RouteDef } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  databaseSnapshot,
  gitRepository,
  pathParams,
  routeKey,
  schemaLeaves,
  until,
  withValueAt,
} from '../support/attack.js'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, http, type HttpResult } from '../support/http.js'
import { generateSshKeys } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { setAppsActive } from '../support/templates.js'

/*
 * Option-like, traversal and NUL values in every field that names a path, a file, a URL, a
 * branch or a command-line value, on every route of the contract. Each request must be
 * stored as plain data (2xx) or refused (4xx) without writing anything; what is stored and
 * later used by a task must never run a command it names nor read a file outside the
 * repository.
 */

/** Body fields that name a path, file, URL, branch or command-line value. */
const PATH_LIKE_KEYS = new Set([
  'git_url',
  'git_branch',
  'playbook',
  'arguments',
  'script',
  'inventory',
  'limit',
  'tags',
  'skip_tags',
  'message',
  'login',
  'path',
  'args',
  'commit_hash',
  'cron_format',
  'cron',
  'start_version',
])

/** Fields holding a JSON array of strings as text: the value also goes in as an entry. */
const JSON_ARRAY_TEXT = new Set(['arguments'])

/**
 * Names that end up on a command line (vault ids, variable names). Other names never reach a
 * path: work folders and temporary files are named by ids.
 */
function isPathLike(path: string[]): boolean {
  const keys = path.filter((step) => step !== '[]')
  const last = keys[keys.length - 1] ?? ''
  if (PATH_LIKE_KEYS.has(last)) return true
  return last === 'name' && (keys.includes('vaults') || keys.includes('secrets'))
}

/** Record-typed fields whose keys the schemas do not spell out, and the inventory override. */
const EXTRA_SLOTS: Record<string, string[][]> = {
  'POST /api/project/:project_id/tasks': [
    ['inventory_id'],
    ['params', 'limit', '[]'],
    ['params', 'tags', '[]'],
    ['params', 'skip_tags', '[]'],
  ],
  'POST /api/project/:project_id/templates': [['task_params', 'limit', '[]']],
  'PUT /api/project/:project_id/templates/:template_id': [['task_params', 'limit', '[]']],
}

const CANARY_NAME = 'CANARY'

function attackValues(canary: string): Array<[string, string]> {
  return [
    ['-c', '-c'],
    ['--upload-pack', `--upload-pack=touch ${canary}`],
    ['--config', `--config=core.sshCommand=touch ${canary}`],
    ['-oProxyCommand', `-oProxyCommand=touch ${canary}`],
    ['traversal', '../../../../etc/passwd'],
    ['..', '..'],
    ['absolute', '/etc/passwd'],
    ['NUL', 'a\u0000b'],
    ['encoded traversal', '%2e%2e%2f'],
    ['64 KB', 'x'.repeat(64 * 1024)],
  ]
}

const Item = z.object({ id: z.number() }).catchall(z.unknown())

interface Fixture {
  admin: Person
  projectId: number
  repoPath: string
  ids: Record<string, number | string>
}

interface Request {
  params: Record<string, string>
  query?: Record<string, string>
  body?: unknown
}

/** Valid requests of each route with a path-like body field, to put one bad value into. */
const BASES: Record<string, Array<[string, (fx: Fixture) => Request]>> = {}

function project(fx: Fixture, extra: Record<string, string> = {}): Record<string, string> {
  return { project_id: String(fx.projectId), ...extra }
}

function backup(fx: Fixture): unknown {
  return {
    meta: { name: unique('restored') },
    keys: [{ name: 'None', type: 'none' }],
    environments: [{ name: 'Empty', json: '{}' }],
    repositories: [{ name: 'repo', git_url: fx.repoPath, git_branch: '', ssh_key: 'None' }],
    inventories: [{ name: 'hosts', type: 'file', inventory: 'hosts', ssh_key: 'None' }],
    templates: [
      {
        name: 'tpl',
        app: 'ansible',
        playbook: 'site.yml',
        arguments: '[]',
        git_branch: '',
        start_version: '',
        repository: 'repo',
        inventory: 'hosts',
        vaults: [{ name: 'vault', type: 'script', script: 'vault-client' }],
      },
    ],
    schedules: [{ name: 'nightly', cron_format: '0 0 1 1 *', template: 'tpl', active: false }],
  }
}

BASES['POST /api/projects/restore'] = [['backup', (fx) => ({ params: {}, body: backup(fx) })]]

const sshBody = (fx: Fixture) => ({
  name: unique('key'),
  project_id: fx.projectId,
  type: 'ssh',
  ssh: { login: 'git', passphrase: '', private_key: String(fx.ids.private_key) },
})
const loginBody = (fx: Fixture) => ({
  name: unique('key'),
  project_id: fx.projectId,
  type: 'login_password',
  login_password: { login: 'deploy', password: 'secret-value' },
})
BASES['POST /api/project/:project_id/keys'] = [
  ['ssh', (fx) => ({ params: project(fx), body: sshBody(fx) })],
  ['login_password', (fx) => ({ params: project(fx), body: loginBody(fx) })],
]
BASES['PUT /api/project/:project_id/keys/:key_id'] = [
  [
    'ssh',
    (fx) => ({
      params: project(fx, { key_id: String(fx.ids.key_id) }),
      body: { ...sshBody(fx), id: fx.ids.key_id, override_secret: true },
    }),
  ],
  [
    'login_password',
    (fx) => ({
      params: project(fx, { key_id: String(fx.ids.key_id) }),
      body: { ...loginBody(fx), id: fx.ids.key_id, override_secret: true },
    }),
  ],
]

const repositoryBody = (fx: Fixture) => ({
  name: unique('repo'),
  project_id: fx.projectId,
  git_url: `file://${fx.repoPath}`,
  git_branch: 'main',
  ssh_key_id: fx.ids.none_key,
})
BASES['POST /api/project/:project_id/repositories'] = [
  ['file url', (fx) => ({ params: project(fx), body: repositoryBody(fx) })],
]
BASES['PUT /api/project/:project_id/repositories/:repository_id'] = [
  [
    'file url',
    (fx) => ({
      params: project(fx, { repository_id: String(fx.ids.spare_repository) }),
      body: { ...repositoryBody(fx), id: fx.ids.spare_repository },
    }),
  ],
]

const fileInventory = (fx: Fixture) => ({
  name: unique('inv'),
  project_id: fx.projectId,
  type: 'file',
  inventory: 'hosts',
  ssh_key_id: fx.ids.none_key,
  repository_id: fx.ids.repository_id,
})
const workspace = (fx: Fixture) => ({
  name: unique('ws'),
  project_id: fx.projectId,
  type: 'terraform-workspace',
  inventory: 'default',
  ssh_key_id: fx.ids.none_key,
})
BASES['POST /api/project/:project_id/inventory'] = [
  ['file', (fx) => ({ params: project(fx), body: fileInventory(fx) })],
  ['terraform workspace', (fx) => ({ params: project(fx), body: workspace(fx) })],
]
BASES['PUT /api/project/:project_id/inventory/:inventory_id'] = [
  [
    'file',
    (fx) => ({
      params: project(fx, { inventory_id: String(fx.ids.spare_inventory) }),
      body: { ...fileInventory(fx), id: fx.ids.spare_inventory },
    }),
  ],
  [
    'terraform workspace',
    (fx) => ({
      params: project(fx, { inventory_id: String(fx.ids.spare_workspace) }),
      body: { ...workspace(fx), id: fx.ids.spare_workspace },
    }),
  ],
]

const environmentBody = (fx: Fixture) => ({
  name: unique('env'),
  project_id: fx.projectId,
  json: '{}',
  env: '{}',
  secrets: [{ operation: 'create', type: 'var', name: 'token', secret: 'value' }],
})
BASES['POST /api/project/:project_id/environment'] = [
  ['var secret', (fx) => ({ params: project(fx), body: environmentBody(fx) })],
]
BASES['PUT /api/project/:project_id/environment/:environment_id'] = [
  [
    'var secret',
    (fx) => ({
      params: project(fx, { environment_id: String(fx.ids.environment_id) }),
      body: { ...environmentBody(fx), id: fx.ids.environment_id },
    }),
  ],
]

const bashTemplate = (fx: Fixture) => ({
  name: unique('tpl'),
  project_id: fx.projectId,
  app: 'bash',
  playbook: 'run.sh',
  arguments: '[]',
  allow_override_args_in_task: true,
  git_branch: '',
  start_version: '',
  repository_id: fx.ids.repository_id,
  task_params: {},
})
const ansibleTemplate = (fx: Fixture) => ({
  name: unique('tpl'),
  project_id: fx.projectId,
  app: 'ansible',
  playbook: 'site.yml',
  repository_id: fx.ids.repository_id,
  inventory_id: fx.ids.inventory_id,
  vaults: [{ name: 'vault', type: 'script', script: 'vault-client' }],
  task_params: {},
})
BASES['POST /api/project/:project_id/templates'] = [
  ['bash', (fx) => ({ params: project(fx), body: bashTemplate(fx) })],
  ['ansible', (fx) => ({ params: project(fx), body: ansibleTemplate(fx) })],
]
BASES['PUT /api/project/:project_id/templates/:template_id'] = [
  [
    'bash',
    (fx) => ({
      params: project(fx, { template_id: String(fx.ids.spare_template) }),
      body: { ...bashTemplate(fx), id: fx.ids.spare_template },
    }),
  ],
  [
    'ansible',
    (fx) => ({
      params: project(fx, { template_id: String(fx.ids.spare_template) }),
      body: { ...ansibleTemplate(fx), id: fx.ids.spare_template },
    }),
  ],
]

const scheduleBody = (fx: Fixture) => ({
  name: unique('schedule'),
  project_id: fx.projectId,
  template_id: fx.ids.template_id,
  cron_format: '0 0 1 1 *',
  active: false,
})
BASES['POST /api/project/:project_id/schedules'] = [
  ['schedule', (fx) => ({ params: project(fx), body: scheduleBody(fx) })],
]
BASES['PUT /api/project/:project_id/schedules/:schedule_id'] = [
  [
    'schedule',
    (fx) => ({
      params: project(fx, { schedule_id: String(fx.ids.schedule_id) }),
      body: { ...scheduleBody(fx), id: fx.ids.schedule_id },
    }),
  ],
]
BASES['POST /api/project/:project_id/schedules/validate'] = [
  ['cron', (fx) => ({ params: project(fx), body: { cron_format: '0 0 1 1 *' } })],
]
BASES['POST /api/project/:project_id/schedules/preview'] = [
  [
    'preview',
    (fx) => ({ params: project(fx), body: { cron_format: '0 0 1 1 *', timezone: 'UTC' } }),
  ],
]

const appBody = { title: 'Attack', path: '', args: [], active: false }
BASES['PUT /api/apps/:app_id'] = [
  ['app', () => ({ params: { app_id: 'attackapp' }, body: appBody })],
]
BASES['POST /api/apps/:app_id'] = [
  ['app', () => ({ params: { app_id: 'attackapp' }, body: appBody })],
]

// Refused without a runner's token (401), as the people checking here have none.
BASES['PUT /api/internal/runners'] = [
  [
    'progress',
    (fx) => ({
      params: {},
      body: {
        Jobs: [
          {
            ID: fx.ids.task_id,
            Status: 'running',
            LogRecords: [{ time: '2026-01-01T00:00:00Z', message: 'line' }],
            Commit: { hash: 'abc', message: 'commit' },
          },
        ],
      },
    }),
  ],
]

BASES['POST /api/project/:project_id/tasks'] = [
  [
    'bash task',
    (fx) => ({
      params: project(fx),
      body: { template_id: fx.ids.template_id, message: 'ok', params: {} },
    }),
  ],
]

/** A request with valid path parameters, for routes without a body to fill. */
function queryBase(route: RouteDef, fx: Fixture): Request {
  return { params: defaultParams(route, fx), query: {} }
}

/** A valid value of every path parameter. */
function defaultParams(route: RouteDef, fx: Fixture): Record<string, string> {
  const params: Record<string, string> = {}
  for (const name of pathParams(route.path)) {
    const value = name === 'project_id' ? fx.projectId : fx.ids[name]
    if (value === undefined) throw new Error(`no value for the path parameter ${name}`)
    params[name] = String(value)
  }
  return params
}

/** A path segment sent exactly: dots too are escaped so nothing normalises `..` away. */
function segment(value: string): string {
  return encodeURIComponent(value).replace(/\./g, '%2E')
}

function buildUrl(route: RouteDef, req: Request): string {
  const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) =>
    segment(req.params[name] ?? ''),
  )
  const query = new URLSearchParams(req.query ?? {}).toString()
  return query ? `${path}?${query}` : path
}

interface Slot {
  part: 'params' | 'query' | 'body'
  path: string[]
  /** How the value is written: as is, or as the one entry of a JSON array text. */
  form: 'plain' | 'json entry'
}

function slotsOf(route: RouteDef): Slot[] {
  const slots: Slot[] = []
  for (const name of pathParams(route.path))
    slots.push({ part: 'params', path: [name], form: 'plain' })
  for (const leaf of schemaLeaves(route.query)) {
    if (leaf.type === 'string') slots.push({ part: 'query', path: leaf.path, form: 'plain' })
  }
  const body = [
    ...schemaLeaves(route.body).filter((l) => l.type === 'string' && isPathLike(l.path)),
    ...(EXTRA_SLOTS[routeKey(route)] ?? []).map((path) => ({ path, type: 'string' })),
  ]
  for (const leaf of body) {
    slots.push({ part: 'body', path: leaf.path, form: 'plain' })
    const last = leaf.path[leaf.path.length - 1] ?? ''
    if (JSON_ARRAY_TEXT.has(last)) slots.push({ part: 'body', path: leaf.path, form: 'json entry' })
  }
  return slots
}

/** Whether a base request's body has the field (checked with a stand-in fixture). */
function hasTop(base: (fx: Fixture) => Request, field: string): boolean {
  const stub: Fixture = {
    admin: { id: 1, username: '', name: '', email: '', password: '', as: {} },
    projectId: 1,
    repoPath: '/',
    ids: new Proxy({}, { get: () => 1 }),
  }
  const body = base(stub).body
  return typeof body === 'object' && body !== null && field in body
}

interface Case {
  name: string
  /** The field and base the case fills: the values of one group are checked together. */
  group: string
  build: (fx: Fixture) => Request
}

function casesOf(route: RouteDef, canary: string): Case[] {
  const cases: Case[] = []
  const key = routeKey(route)
  for (const slot of slotsOf(route)) {
    const own = BASES[key] ?? []
    // A nested field goes into the bases that have its parent (an ssh login into ssh keys).
    const matching = own.filter(([, base]) => hasTop(base, slot.path[0] ?? ''))
    const bases: Array<[string, (fx: Fixture) => Request]> =
      slot.part === 'body'
        ? matching.length > 0
          ? matching
          : own.slice(0, 1)
        : [
            [
              'valid',
              (fx) => {
                const base = BASES[key]?.[0]?.[1](fx) ?? queryBase(route, fx)
                return route.body && base.body === undefined ? { ...base, body: {} } : base
              },
            ],
          ]
    for (const [baseName, base] of bases) {
      for (const [label, value] of attackValues(canary)) {
        const written = slot.form === 'json entry' ? JSON.stringify([value]) : value
        cases.push({
          group: `${slot.part} ${slot.path.join('.')} ${slot.form} [${baseName}]`,
          name: `${slot.part} ${slot.path.join('.')}${slot.form === 'json entry' ? ' (entry)' : ''} = ${label} [${baseName}]`,
          build: (fx) => {
            const req = base(fx)
            if (slot.part === 'params') {
              return { ...req, params: { ...req.params, [slot.path[0] ?? '']: written } }
            }
            if (slot.part === 'query') {
              return { ...req, query: { ...req.query, [slot.path.join('.')]: written } }
            }
            return { ...req, body: withValueAt(req.body, slot.path, written) }
          },
        })
      }
    }
  }
  return cases
}

/** Routes with path-like body fields must have a valid request to put values into. */
describe('the path-like field table', () => {
  it('has a valid request for every route with a path-like body field', () => {
    const missing = ROUTES.filter((route) =>
      slotsOf(route).some((slot) => slot.part === 'body' && !BASES[routeKey(route)]),
    ).map(routeKey)
    expect(missing).toEqual([])
  })

  it('finds the fields tasks use', () => {
    const found = ROUTES.flatMap((route) =>
      slotsOf(route)
        .filter((slot) => slot.part === 'body')
        .map((slot) => `${routeKey(route)} ${slot.path.join('.')}`),
    )
    for (const field of [
      'POST /api/project/:project_id/repositories git_url',
      'POST /api/project/:project_id/repositories git_branch',
      'POST /api/project/:project_id/templates playbook',
      'POST /api/project/:project_id/templates arguments',
      'POST /api/project/:project_id/templates vaults.[].script',
      'POST /api/project/:project_id/inventory inventory',
      'POST /api/project/:project_id/tasks playbook',
      'POST /api/project/:project_id/tasks git_branch',
      'POST /api/project/:project_id/tasks limit',
      'POST /api/project/:project_id/keys ssh.login',
      'PUT /api/apps/:app_id args.[]',
      'POST /api/projects/restore repositories.[].git_url',
      'POST /api/projects/restore templates.[].vaults.[].script',
    ]) {
      expect(found).toContain(field)
    }
  })
})

/** Raw GET of a path exactly as written (fetch would resolve `..` and `%2e%2e`). */
function rawGet(url: string, path: string): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: hostname, port, path, method: 'GET' }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }))
    })
    req.on('error', reject)
    req.end()
  })
}

/** The value, written so that it reaches outside `from` whatever the depth. */
function climbTo(file: string): string {
  return `${'../'.repeat(12)}${file.replace(/^\/+/, '')}`
}

interface RunCase {
  name: string
  /** Stores the value through the API; null when the API refused it. */
  store: (
    value: string,
    canary: string,
  ) => Promise<{ projectId: number; body: Record<string, unknown> } | null>
  values: Array<[string, string]>
  /** A value that names a real file or branch: its task must succeed, showing the set-up works. */
  legit?: string
  /** The stored value names nothing legitimate, so the task must end in error. */
  mustFail: boolean
}

describe.each(dialects())('path-like fields on %s', (dialect) => {
  let server: TestServer
  let world: World
  let db: Db
  let fx: Fixture
  let repo: ReturnType<typeof gitRepository>
  // Made while the suite is collected: the run cases below name files in them.
  const canaryDir = mkdtempSync(join(tmpdir(), 'flagman-canary-'))
  const outsideDir = mkdtempSync(join(tmpdir(), 'flagman-outside-'))
  const outsideMarker = `OUTSIDE-${randomBytes(6).toString('hex')}`

  beforeAll(async () => {
    // Files outside the repository: running one touches the canary, reading one shows the
    // marker in the output.
    const touch = `touch '${join(canaryDir, 'outside-executed')}'`
    writeFileSync(join(outsideDir, 'run.sh'), `echo ${outsideMarker}\n${touch}\n`)
    writeFileSync(join(outsideDir, 'hosts'), `${outsideMarker} ansible_connection=local\n`)
    writeFileSync(
      join(outsideDir, 'site.yml'),
      `- hosts: all\n  gather_facts: false\n  tasks:\n    - debug: msg=${outsideMarker}\n`,
    )
    writeFileSync(join(outsideDir, 'vault-client'), `#!/bin/sh\necho ${outsideMarker}\n${touch}\n`)
    chmodSync(join(outsideDir, 'vault-client'), 0o755)
    chmodSync(join(outsideDir, 'run.sh'), 0o755)
    repo = gitRepository({
      'run.sh': 'echo "args:$*"\n',
      'site.yml':
        "- hosts: all\n  gather_facts: false\n  tasks:\n    - debug: msg=\"hosts {{ groups['all'] | join(',') }}\"\n",
      hosts: 'inside ansible_connection=local\n',
      // Needs a connection to the host, unlike a debug message.
      'ping.yml': '- hosts: all\n  gather_facts: false\n  tasks:\n    - ping:\n',
      'vault-client': '#!/bin/sh\necho vault-password\n',
      'main.tf': 'terraform {}\n',
    })
    server = await startTestServer(dialect)
    world = new World(server)
    db = await world.openDb()
    await setAppsActive(world, ['bash', 'ansible', 'terraform'], true)
    const admin = await world.admin()
    const proj = await world.newProject()
    const send = (method: string, path: string, json?: unknown) =>
      world.request(method, `/api/project/${proj.id}${path}`, {
        as: admin.as,
        ...(json === undefined ? {} : { json }),
      })
    const create = async (path: string, json: unknown): Promise<number> =>
      expectBody(await send('POST', path, json), 201, Item).id
    const keys = expectBody(await send('GET', '/keys'), 200, z.array(Item))
    const noneKey = keys.find((k) => k.name === 'None')?.id ?? 0
    const ids: Record<string, number | string> = {
      none_key: noneKey,
      private_key: generateSshKeys().plain,
      user_id: admin.id,
      app_id: 'attackapp',
      token_id: 'abcdefgh',
      alias_id: 1,
      state_id: 1,
      totp_id: 1,
    }
    fx = { admin, projectId: proj.id, repoPath: repo.path, ids }
    ids.key_id = await create('/keys', loginBody(fx))
    // The tasks this project starts end at once: their repository folder is gone, so no
    // process runs while requests are checked.
    const gone = mkdtempSync(join(tmpdir(), 'flagman-gone-'))
    ids.repository_id = await create('/repositories', {
      name: 'local',
      project_id: proj.id,
      git_url: gone,
      git_branch: '',
      ssh_key_id: noneKey,
    })
    rmSync(gone, { recursive: true, force: true })
    ids.spare_repository = await create('/repositories', repositoryBody(fx))
    ids.inventory_id = await create('/inventory', {
      ...fileInventory(fx),
      type: 'static',
      inventory: 'localhost ansible_connection=local',
    })
    ids.spare_inventory = await create('/inventory', fileInventory(fx))
    ids.spare_workspace = await create('/inventory', workspace(fx))
    ids.environment_id = await create('/environment', environmentBody(fx))
    ids.view_id = await create('/views', { title: 'view', position: 0, project_id: proj.id })
    ids.template_id = await create('/templates', bashTemplate(fx))
    ids.spare_template = await create('/templates', bashTemplate(fx))
    ids.schedule_id = await create('/schedules', scheduleBody(fx))
    ids.integration_id = await create('/integrations', {
      name: 'hook',
      project_id: proj.id,
      template_id: ids.template_id,
    })
    ids.matcher_id = expectBody(
      await send('POST', `/integrations/${ids.integration_id}/matchers`, {
        name: 'event',
        match_type: 'header',
        key: 'X-Event',
        value: 'push',
      }),
      200,
      Item,
    ).id
    ids.value_id = await create(`/integrations/${ids.integration_id}/values`, {
      name: 'ref',
      value_source: 'header',
      key: 'X-Ref',
      variable: 'REF',
    })
    ids.runner_id = await create('/runners', { name: 'attack runner' })
    ids.alias = 'no-such-alias'
    const task = await create('/tasks', { template_id: ids.template_id })
    ids.task_id = task
    await until('the first task to finish', async () => {
      const body = (await send('GET', `/tasks/${task}`)).body as { status: string }
      return ['success', 'error'].includes(body.status)
    })
    const app = await world.request('PUT', '/api/apps/attackapp', { as: admin.as, json: appBody })
    expect(app.status).toBe(204)
  }, 60_000)

  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    repo?.dispose()
    for (const dir of [canaryDir, outsideDir]) rmSync(dir, { recursive: true, force: true })
  })

  /** Rows as a refused request must leave them; running tasks only move their own rows. */
  function snapshot(): Promise<string> {
    return databaseSnapshot(
      db,
      (table, row) => (table === 'event' && row.object_type === 'task' ? null : row),
      { skip: ['task_output'], idsOnly: ['task'] },
    )
  }

  // Task-creating routes last: their tasks run while later requests are checked.
  const ordered = [...ROUTES].sort(
    (a, b) => Number(a.path.endsWith('/tasks')) - Number(b.path.endsWith('/tasks')),
  )
  it.each(ordered.map((route) => [routeKey(route), route] as const))(
    '%s: answers 2xx or 4xx to every path-like value, and a refusal writes nothing',
    async (_key, route) => {
      const cases = casesOf(route, join(canaryDir, CANARY_NAME))
      const problems: string[] = []
      const write = route.method !== 'GET'
      /** Sends a case and answers its status; null when no answer came. */
      const send = async (c: Case, report: boolean): Promise<number | null> => {
        const req = c.build(fx)
        let result: HttpResult
        try {
          result = await http(server.url, route.method, buildUrl(route, req), {
            as: fx.admin.as,
            ...(req.body === undefined ? {} : { json: req.body }),
          })
        } catch (error) {
          if (report) problems.push(`${c.name}: no answer (${String(error)})`)
          return null
        }
        const ok = result.status >= 200 && result.status < 300
        const refused = result.status >= 400 && result.status < 500
        if (report && !ok && !refused) {
          problems.push(`${c.name}: ${result.status} ${result.text.slice(0, 200)}`)
        }
        return result.status
      }
      const groups = new Map<string, Case[]>()
      for (const c of cases) groups.set(c.group, [...(groups.get(c.group) ?? []), c])
      // One snapshot before and one after the values of a field; when some were stored and
      // some refused, each refused request is sent again on its own between two snapshots.
      for (const [group, members] of groups) {
        const before = write ? await snapshot() : ''
        const refused: Case[] = []
        for (const c of members) {
          const status = await send(c, true)
          if (status !== null && status >= 400 && status < 500) refused.push(c)
        }
        if (!write || refused.length === 0) continue
        let current = await snapshot()
        if (refused.length === members.length) {
          if (current !== before) problems.push(`${group}: refused every value, but wrote`)
          continue
        }
        for (const c of refused) {
          const status = await send(c, false)
          const after = await snapshot()
          if (status !== null && status >= 400 && after !== current) {
            problems.push(`${c.name}: refused with ${status}, but wrote`)
          }
          current = after
        }
      }
      expect(problems).toEqual([])
      expect(existsSync(join(canaryDir, CANARY_NAME)), 'a value ran as a command').toBe(false)
    },
    120_000,
  )

  it('serves no file outside the console folder for traversal paths', async () => {
    for (const path of [
      '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/assets/..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      '/assets/../../../../../../etc/passwd',
      '/..\\..\\..\\..\\etc\\passwd',
      '/assets/%00../../etc/passwd',
    ]) {
      const result = await rawGet(server.url, path)
      expect(result.status, path).toBeLessThan(500)
      expect(result.text, path).not.toMatch(/root:.*:0:0:/)
    }
  })

  describe('stored values used by tasks', () => {
    let runProject: number
    let runNone: number
    let localRepo: number
    let fileRepo: number
    let staticInventory: number

    const admin = () => fx.admin
    const send = (method: string, path: string, json?: unknown) =>
      world.request(method, path, { as: admin().as, ...(json === undefined ? {} : { json }) })
    const inRun = (path: string) => `/api/project/${runProject}${path}`
    /** Posts and answers the new id, or null when refused with a 4xx. */
    const tryCreate = async (path: string, json: unknown): Promise<number | null> => {
      const result = await send('POST', path, json)
      if (result.status >= 400 && result.status < 500) return null
      return expectBody(result, 201, Item).id
    }
    const create = async (path: string, json: unknown): Promise<number> =>
      expectBody(await send('POST', path, json), 201, Item).id
    const canaryOf = (name: string) => join(canaryDir, name.replace(/[^a-z0-9]+/gi, '_'))

    beforeAll(async () => {
      runProject = (await world.newProject()).id
      const keys = expectBody(await send('GET', inRun('/keys')), 200, z.array(Item))
      runNone = keys.find((k) => k.name === 'None')?.id ?? 0
      const repository = (git_url: string, git_branch: string) =>
        create(inRun('/repositories'), {
          name: unique('repo'),
          project_id: runProject,
          git_url,
          git_branch,
          ssh_key_id: runNone,
        })
      localRepo = await repository(repo.path, '')
      fileRepo = await repository(`file://${repo.path}`, 'main')
      staticInventory = await create(inRun('/inventory'), {
        name: 'local',
        project_id: runProject,
        type: 'static',
        inventory: 'localhost ansible_connection=local',
        ssh_key_id: runNone,
      })
    })

    const template = (fields: Record<string, unknown>) =>
      tryCreate(inRun('/templates'), {
        name: unique('tpl'),
        project_id: runProject,
        app: 'bash',
        playbook: 'run.sh',
        repository_id: localRepo,
        ...fields,
      })
    const stored = async (templateId: number | null, body: Record<string, unknown> = {}) =>
      templateId === null
        ? null
        : { projectId: runProject, body: { template_id: templateId, ...body } }

    /** Restores a backup and answers the run of its one template, or null when refused. */
    const restored = async (change: (b: Record<string, unknown>) => void) => {
      const b = backup(fx) as Record<string, unknown>
      b.schedules = []
      change(b)
      const result = await send('POST', '/api/projects/restore', b)
      if (result.status >= 400 && result.status < 500) return null
      expect(result.status, result.text).toBeLessThan(300)
      const projectId = (result.body as { id: number }).id
      const templates = expectBody(
        await send('GET', `/api/project/${projectId}/templates`),
        200,
        z.array(Item),
      )
      const id = templates[0]?.id
      if (id === undefined) return null
      return { projectId, body: { template_id: id } }
    }
    const staticBackupInventory = {
      name: 'hosts',
      type: 'static',
      inventory: 'localhost ansible_connection=local',
      ssh_key: 'None',
    }
    const restoredTemplate = (b: Record<string, unknown>) =>
      (b.templates as Array<Record<string, unknown>>)[0] ?? {}

    const options = (canary: string): Array<[string, string]> => [
      ['-c', '-c'],
      ['--upload-pack', `--upload-pack=touch ${canary}`],
      ['--config', `--config=core.sshCommand=touch ${canary}`],
      ['-oProxyCommand', `-oProxyCommand=touch ${canary}`],
    ]
    const outside = (file: string): Array<[string, string]> => [
      ['traversal', climbTo(join(outsideDir, file))],
      ['absolute', join(outsideDir, file)],
      ['..', '..'],
    ]

    // Each case gets its own canary, named after it, so a failure says which one ran.
    const RUNS: RunCase[] = [
      {
        name: 'template playbook',
        legit: 'run.sh',
        mustFail: true,
        values: [...options('@'), ...outside('run.sh')],
        store: async (value, canary) =>
          stored(
            await template({ playbook: value, arguments: JSON.stringify([`touch ${canary}`]) }),
          ),
      },
      {
        name: 'task playbook',
        legit: 'run.sh',
        mustFail: true,
        values: [...options('@'), ...outside('run.sh')],
        store: async (value, canary) =>
          stored(await template({ arguments: JSON.stringify([`touch ${canary}`]) }), {
            playbook: value,
          }),
      },
      {
        name: 'template git_branch',
        legit: 'main',
        mustFail: true,
        values: [...options('@'), ['..', '..']],
        store: async (value) =>
          stored(await template({ repository_id: fileRepo, git_branch: value })),
      },
      {
        name: 'task git_branch',
        legit: 'main',
        mustFail: true,
        values: [...options('@'), ['..', '..']],
        store: async (value) =>
          stored(await template({ repository_id: fileRepo }), { git_branch: value }),
      },
      {
        name: 'repository git_url',
        legit: '@repo',
        mustFail: true,
        values: [...options('@'), ['..', '..']],
        store: async (value) => {
          const id = await tryCreate(inRun('/repositories'), {
            name: unique('repo'),
            project_id: runProject,
            git_url: value,
            git_branch: 'main',
            ssh_key_id: runNone,
          })
          return id === null ? null : stored(await template({ repository_id: id }))
        },
      },
      {
        name: 'task arguments',
        mustFail: false,
        values: options('@'),
        store: async (value) =>
          stored(await template({ allow_override_args_in_task: true }), {
            arguments: JSON.stringify([value]),
          }),
      },
      {
        name: 'file inventory',
        legit: 'hosts',
        mustFail: true,
        values: outside('hosts'),
        store: async (value) => {
          const id = await tryCreate(inRun('/inventory'), {
            name: unique('inv'),
            project_id: runProject,
            type: 'file',
            inventory: value,
            ssh_key_id: runNone,
          })
          if (id === null) return null
          return stored(await template({ app: 'ansible', playbook: 'site.yml', inventory_id: id }))
        },
      },
      {
        name: 'vault script',
        legit: 'vault-client',
        mustFail: true,
        values: outside('vault-client'),
        store: async (value) =>
          stored(
            await template({
              app: 'ansible',
              playbook: 'site.yml',
              inventory_id: staticInventory,
              vaults: [{ type: 'script', script: value }],
            }),
          ),
      },
      {
        name: 'ssh key login',
        mustFail: true,
        values: options('@').slice(1),
        store: async (value) => {
          const key = await tryCreate(inRun('/keys'), {
            name: unique('key'),
            project_id: runProject,
            type: 'ssh',
            ssh: { login: value, passphrase: '', private_key: String(fx.ids.private_key) },
          })
          if (key === null) return null
          const inv = await tryCreate(inRun('/inventory'), {
            name: unique('inv'),
            project_id: runProject,
            type: 'static',
            inventory: 'target ansible_host=127.0.0.1 ansible_port=1 ansible_connection=ssh',
            ssh_key_id: key,
          })
          if (inv === null) return null
          return stored(await template({ app: 'ansible', playbook: 'ping.yml', inventory_id: inv }))
        },
      },
      {
        name: 'terraform workspace',
        legit: 'staging',
        mustFail: true,
        values: [options('@')[1] as [string, string], ...outside('ws').slice(0, 2)],
        store: async (value) => {
          const id = await template({ app: 'terraform', playbook: '', repository_id: fileRepo })
          if (id === null) return null
          const inv = await tryCreate(inRun('/inventory'), {
            name: unique('ws'),
            project_id: runProject,
            type: 'terraform-workspace',
            inventory: value,
            template_id: id,
            ssh_key_id: runNone,
          })
          if (inv === null) return null
          const set = await send('POST', inRun(`/templates/${id}/inventory/${inv}/set_default`))
          if (set.status >= 400 && set.status < 500) return null
          return stored(id)
        },
      },
      {
        name: 'restored template playbook',
        legit: 'run.sh',
        mustFail: true,
        values: [...options('@').slice(0, 1), ...outside('site.yml')],
        store: (value, canary) =>
          restored((b) => {
            const t = restoredTemplate(b)
            Object.assign(t, {
              app: 'bash',
              playbook: value,
              vaults: [],
              arguments: JSON.stringify([`touch ${canary}`]),
            })
            delete t.inventory
            b.inventories = [staticBackupInventory]
          }),
      },
      {
        name: 'restored repository git_url',
        legit: '@repo',
        mustFail: true,
        values: [...options('@'), ['..', '..']],
        store: (value) =>
          restored((b) => {
            b.repositories = [{ name: 'repo', git_url: value, git_branch: 'main', ssh_key: 'None' }]
            Object.assign(restoredTemplate(b), { vaults: [] })
            b.inventories = [staticBackupInventory]
          }),
      },
      {
        name: 'restored file inventory',
        legit: 'hosts',
        mustFail: true,
        values: outside('hosts'),
        store: (value) =>
          restored((b) => {
            b.inventories = [{ name: 'hosts', type: 'file', inventory: value, ssh_key: 'None' }]
            Object.assign(restoredTemplate(b), { vaults: [] })
          }),
      },
      {
        name: 'restored vault script',
        legit: 'vault-client',
        mustFail: true,
        values: outside('vault-client'),
        store: (value) =>
          restored((b) => {
            Object.assign(restoredTemplate(b), {
              vaults: [{ name: 'v', type: 'script', script: value }],
            })
            b.inventories = [staticBackupInventory]
          }),
      },
    ]

    it('never runs a command a value names, nor reads a file outside the repository', async () => {
      interface Started {
        label: string
        projectId: number
        taskId: number
        canary: string
        /** The status it must end with; null: success or error. */
        expect: string | null
      }
      const started: Started[] = []
      const refused: string[] = []
      for (const run of RUNS) {
        const values = [...run.values]
        if (run.legit !== undefined) values.push(['legit', run.legit])
        for (const [valueLabel, raw] of values) {
          const label = `${run.name} = ${valueLabel}`
          const canary = canaryOf(label)
          const value = raw === '@repo' ? `file://${repo.path}` : raw.replace(/@/g, canary)
          const legit = valueLabel === 'legit'
          const where = await run.store(value, canary)
          if (where === null) {
            if (legit) throw new Error(`${label}: the API refused a legitimate value`)
            refused.push(label)
            continue
          }
          const result = await send('POST', `/api/project/${where.projectId}/tasks`, where.body)
          expect(result.status, `${label}: ${result.text}`).toBeLessThan(500)
          if (result.status >= 400) {
            refused.push(label)
            continue
          }
          const taskId = expectBody(result, 201, Item).id
          started.push({
            label,
            projectId: where.projectId,
            taskId,
            canary,
            expect: legit ? 'success' : run.mustFail ? 'error' : null,
          })
        }
      }
      const problems: string[] = []
      for (const task of started) {
        let status = ''
        await until(
          `the task of ${task.label}`,
          async () => {
            const r = await send('GET', `/api/project/${task.projectId}/tasks/${task.taskId}`)
            status = (r.body as { status: string }).status
            return ['success', 'error', 'stopped'].includes(status)
          },
          120_000,
        )
        const output = await send(
          'GET',
          `/api/project/${task.projectId}/tasks/${task.taskId}/output`,
        )
        const text = output.text
        if (task.expect !== null && status !== task.expect) {
          const tail = (output.body as Array<{ output: string }>)
            .slice(-4)
            .map((line) => line.output)
            .join(' / ')
          problems.push(`${task.label}: ended ${status}, not ${task.expect} (${tail})`)
        }
        if (existsSync(task.canary)) problems.push(`${task.label}: ran the command it names`)
        if (text.includes(outsideMarker)) {
          problems.push(`${task.label}: read a file outside the repository`)
        }
      }
      if (existsSync(join(canaryDir, 'outside-executed'))) {
        problems.push('a script outside the repository ran')
      }
      expect(problems).toEqual([])
      // The scenario did run tasks, and refused what it refused without a server error.
      expect(started.length + refused.length).toBe(
        RUNS.reduce((n, run) => n + run.values.length + (run.legit === undefined ? 0 : 1), 0),
      )
    }, 180_000)
  })
})
