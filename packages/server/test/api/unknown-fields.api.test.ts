import {
  buildPath,
  CreateTokenBody,
  keepsUndeclared,
  Project,
  ROUTES,
  schemaDef,
  TotpEnrolment,
  unionBranch,
  unwrapSchema,
  type RouteDef,
} from '@flagman/contract'
import { TOTP, URI } from 'otpauth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import {
  cookieFrom,
  expectBody,
  type Credentials,
  type HttpOptions,
  type HttpResult,
} from '../support/http.js'
import { generateSshKeys } from '../support/resources.js'
import {
  BODIES,
  backendKey,
  ENVIRONMENTS,
  integrationPart,
  INTEGRATIONS,
  INVENTORIES,
  Item,
  KEYS,
  maker,
  MATCHER,
  needsOf,
  PROJECT_RUNNERS,
  REPOSITORIES,
  SCHEDULES,
  taskFinished,
  TEMPLATES,
  terraformStates,
  updateBody,
  VALUE,
  VIEWS,
  finishedTask,
  type CaseFixture,
  type ResourceKind,
  type Setup,
} from '../support/route-cases.js'
import { startTestServer, type TestServer } from '../support/server.js'

/*
 * The tolerant reader, route by route: every write route of the contract is called twice on
 * equivalent fresh state, on two servers alike, once with a valid body and once with the
 * same body plus fields Flagman does not declare (at the top and in every nested object).
 * Both calls must answer alike and store alike, and nothing of the extra fields may show.
 * The cases are generated from ROUTES: a write route added without a case fails the table.
 */

const REGISTRATION_TOKEN = 'registration-token-of-the-unknown-fields-test'
const SERVER_ENV = {
  FLAGMAN_TOTP_ENABLED: 'true',
  FLAGMAN_TOTP_ALLOW_RECOVERY: 'true',
  FLAGMAN_RUNNER_REGISTRATION_TOKEN: REGISTRATION_TOKEN,
}

/** Values of the undeclared fields, so a test can tell if any of them was kept. */
const MARK = 'undeclared-field-value'
const MARK_NUMBER = 424242
const MARK_TIME = '2001-02-03T04:05:06Z'
const MARKS = [MARK, String(MARK_NUMBER), MARK_TIME.slice(0, 10)]

/**
 * Fields added to every object of a body that does not declare them: made-up ones, and the
 * read-only fields compatible clients send back (`id`, `created`, `project_id`, `tasks`).
 */
const UNDECLARED: Record<string, unknown> = {
  colour: MARK,
  id: MARK_NUMBER,
  created: MARK_TIME,
  project_id: MARK_NUMBER,
  tasks: MARK_NUMBER,
  nested_extra: { deep: [MARK, { id: MARK_NUMBER }] },
}

interface Fx extends CaseFixture {
  admin: Person
  sshKey: string
  /** Credentials the call is sent with when not the admin's (a session, a runner token). */
  session?: Credentials
  totp?: TotpEnrolment
  runnerToken?: string
  /** A user a case made, with their password. */
  user?: Omit<Person, 'as'>
}

interface WriteCase {
  /** Why the route is not called with undeclared fields: its body has no room for them. */
  skip?: string
  /** Makes what the call works on; `fx.ids` keeps the path parameters. */
  setup?: (fx: Fx) => Promise<Record<string, number> | void>
  /** A valid body. */
  body?: (fx: Fx) => unknown
  /** Sends the call; by default as the admin, to the route's path filled from `fx.ids`. */
  send?: (fx: Fx, body: unknown) => Promise<HttpResult>
  /** Paths of the nested objects the body offers to undeclared fields, e.g. `vaults.0`. */
  nested?: string[]
  /** Reads back what the call stored. */
  read: (fx: Fx, result: HttpResult) => Promise<unknown>
  /** The status both calls answer, when not the route's success (refused for another reason). */
  status?: number
  /** Fields of the answer that differ by design, e.g. a report of what a restore left out. */
  reported?: string[]
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const join = (path: string, key: string | number) => (path ? `${path}.${key}` : String(key))

/**
 * The body with UNDECLARED added to every object the schema reads as a plain object (not to
 * free-form records, whose keys are all data), and the paths of those objects in `found`.
 */
function withUndeclared(schema: z.ZodType, value: unknown, path: string, found: string[]): unknown {
  const inner = unwrapSchema(schema)
  const def = schemaDef(inner)
  switch (def.type) {
    case 'array':
      if (!Array.isArray(value)) return value
      return value.map((item, index) =>
        withUndeclared(def.element as z.ZodType, item, join(path, index), found),
      )
    case 'union': {
      const branch = isRecord(value) ? unionBranch(inner, value) : undefined
      return branch ? withUndeclared(branch, value, path, found) : value
    }
    case 'object': {
      if (!isRecord(value)) return value
      const shape = def.shape as Record<string, z.ZodType>
      const result: Record<string, unknown> = {}
      for (const [key, item] of Object.entries(value)) {
        const field = shape[key]
        result[key] = field ? withUndeclared(field, item, join(path, key), found) : item
      }
      if (keepsUndeclared(inner)) return result
      for (const [key, extra] of Object.entries(UNDECLARED)) {
        if (!(key in shape) && !(key in value)) result[key] = extra
      }
      found.push(path)
      return result
    }
    default:
      return value
  }
}

const ISO_TIME = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?/g
/** Names made by `unique()`: a word and a counter that differs between the two servers. */
const GENERATED_NAME = /[a-z]+\d{3,}/g
const ID_KEY = /^(id|ID|.+_id)$/
/** Made by the server, different on every call: tokens, keys, alias addresses. */
const VOLATILE_KEYS = new Set(['token', 'private_key', 'url', 'prefix', 'recovery_code'])

/** The value with what differs between two equivalent calls blanked out. */
function normalise(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => normalise(item))
  if (isRecord(value)) {
    return Object.fromEntries(
      Object.entries(value).map(([k, item]) => {
        if (VOLATILE_KEYS.has(k) && typeof item === 'string') return [k, '<volatile>']
        if (ID_KEY.test(k) && (typeof item === 'number' || typeof item === 'string')) {
          return [k, '<id>']
        }
        return [k, normalise(item, k)]
      }),
    )
  }
  if (typeof value === 'string' && key !== 'password') {
    return value.replace(ISO_TIME, '<time>').replace(GENERATED_NAME, '<name>')
  }
  return value
}

const project = (fx: Fx) => `/api/project/${fx.project.id}`

function get(fx: Fx, path: string, as: Credentials = fx.admin.as): Promise<unknown> {
  return fx.world.request('GET', path, { as }).then((r) => ({ status: r.status, body: r.body }))
}

/** Reads an item of the project made by the call (the answer's id) or named by `fx.ids`. */
function readItem(segment: string, idParam?: string) {
  return (fx: Fx, result: HttpResult) => {
    const id = idParam ? fx.ids[idParam] : (result.body as { id?: number } | undefined)?.id
    return get(fx, `${project(fx)}/${buildPath(segment, fx.ids)}/${String(id)}`)
  }
}

const readList = (segment: string) => (fx: Fx) =>
  get(fx, `${project(fx)}/${buildPath(segment, fx.ids)}`)

/** Create and update cases of a project resource kind, with optional extra body fields. */
function resourceCases(
  kind: ResourceKind,
  extra: {
    setup?: (fx: Fx) => Promise<Record<string, number> | void>
    fields?: (fx: Fx) => Record<string, unknown>
    nested?: string[]
  } = {},
): Record<string, WriteCase> {
  const base = `/api/project/:project_id/${kind.segment}`
  const fields = extra.fields ?? (() => ({}))
  const prepare = (setup: Setup) => async (fx: Fx) => {
    Object.assign(fx.ids, await setup(fx))
    Object.assign(fx.ids, await extra.setup?.(fx))
  }
  return {
    [`POST ${base}`]: {
      setup: prepare(needsOf(kind)),
      body: async (fx) => ({ ...(await kind.body(fx, 'made by the case')), ...fields(fx) }),
      nested: extra.nested,
      read: readItem(kind.segment),
    },
    [`PUT ${base}/:${kind.idParam}`]: {
      setup: prepare(maker(kind)),
      body: async (fx) => ({ ...(await updateBody(kind, fx)), ...fields(fx) }),
      nested: extra.nested,
      read: readItem(kind.segment, kind.idParam),
    },
  }
}

/** A user made by the admin, kept in `fx.user`. */
async function newUser(fx: Fx): Promise<Record<string, number>> {
  fx.user = await fx.world.createUser()
  return { user_id: fx.user.id }
}

/** What an Ansible template with a vault needs: an inventory and a login/password key. */
async function ansibleNeeds(fx: Fx): Promise<Record<string, number>> {
  const made = await maker(INVENTORIES)(fx)
  return { ...made, vault_key_id: await backendKey(fx, 'vault') }
}

// Vaults are for Ansible templates, so the template is one.
const templateFields = (fx: Fx) => ({
  app: 'ansible',
  playbook: 'site.yml',
  inventory_id: fx.ids.inventory_id,
  description: 'made with survey and vault',
  survey_vars: [
    {
      name: 'region',
      title: 'Region',
      type: 'enum',
      required: true,
      values: [{ name: 'Europe', value: 'eu' }],
    },
  ],
  vaults: [{ type: 'password', vault_key_id: fx.ids.vault_key_id }],
})

/** Signs a fresh user in with two-factor sign-in enrolled: a session awaiting the code. */
async function awaitingSecondFactor(fx: Fx): Promise<void> {
  const person = await fx.world.newUser()
  const enrolment = await fx.world.request('POST', `/api/users/${person.id}/2fas/totp`, {
    as: person.as,
  })
  fx.totp = expectBody(enrolment, 200, TotpEnrolment)
  fx.session = await fx.world.signIn(person.username, person.password)
}

function totpCode(enrolment: TotpEnrolment | undefined): string {
  const otp = URI.parse(enrolment?.url ?? '')
  if (!(otp instanceof TOTP)) throw new Error('not a TOTP address')
  return otp.generate()
}

async function globalRunner(fx: Fx): Promise<Record<string, number>> {
  const result = await fx.world.request('POST', '/api/runners', {
    as: fx.admin.as,
    json: { name: unique('runner') },
  })
  return { runner_id: expectBody(result, 201, Item).id }
}

const readGlobalRunner = (fx: Fx, result: HttpResult) => {
  const id = fx.ids.runner_id ?? (result.body as { id: number }).id
  return get(fx, `/api/runners/${id}`)
}

/** The global runners with the name, as the admin lists them. */
async function runnersNamed(fx: Fx, name: RegExp): Promise<unknown> {
  const list = await fx.world.request('GET', '/api/runners', { as: fx.admin.as })
  return (list.body as Array<{ name: string }>).filter((runner) => name.test(runner.name))
}

/** Where a template body offers room for undeclared fields besides its top level. */
const TEMPLATE_NESTED = ['survey_vars.0', 'survey_vars.0.values.0', 'vaults.0']

const RESTORE_BODY = {
  meta: { name: 'restored', alert: true, max_parallel_tasks: 2 },
  keys: [{ name: 'None', type: 'none' }],
  environments: [{ name: 'Empty', json: '{}', env: '{}' }],
  views: [{ title: 'Main', position: 0 }],
  repositories: [
    { name: 'repo', git_url: 'https://example.test/repo.git', git_branch: 'main', ssh_key: 'None' },
  ],
  inventories: [{ name: 'hosts', inventory: '[web]\nweb1', type: 'static', ssh_key: 'None' }],
  templates: [
    {
      name: 'deploy',
      playbook: 'run.sh',
      app: 'bash',
      repository: 'repo',
      inventory: 'hosts',
      environment: 'Empty',
      view: 'Main',
      survey_vars: [
        { name: 'region', title: 'Region', type: 'enum', values: [{ name: 'EU', value: 'eu' }] },
      ],
    },
  ],
  integrations: [
    {
      name: 'hook',
      template: 'deploy',
      matchers: [
        { name: 'm', match_type: 'header', method: 'equals', key: 'X-Event', value: 'push' },
      ],
      extract_values: [{ name: 'e', value_source: 'header', key: 'X-Ref', variable: 'REF' }],
    },
  ],
  schedules: [{ name: 'yearly', cron_format: '0 0 1 1 *', template: 'deploy', active: true }],
}

const CASES: Record<string, WriteCase> = {
  'POST /api/options': {
    body: () => ({ key: 'unknown_fields.case', value: 'on' }),
    read: async (fx) => {
      const options = await fx.world.request('GET', '/api/options', { as: fx.admin.as })
      return (options.body as Record<string, unknown>)['unknown_fields.case']
    },
  },
  'POST /api/auth/login': {
    body: (fx) => ({ auth: fx.candidate.username, password: fx.candidate.password }),
    send: (fx, body) => fx.world.request('POST', '/api/auth/login', { json: body }),
    read: (fx, result) => get(fx, '/api/user', { cookie: cookieFrom(result) }),
  },
  'POST /api/auth/verify': {
    setup: awaitingSecondFactor,
    body: (fx) => ({ passcode: totpCode(fx.totp) }),
    send: (fx, body) =>
      fx.world.request('POST', '/api/auth/verify', { as: fx.session, json: body }),
    read: (fx) => get(fx, '/api/user', fx.session),
  },
  'POST /api/auth/recovery': {
    setup: awaitingSecondFactor,
    body: (fx) => ({ recovery_code: fx.totp?.recovery_code }),
    send: (fx, body) =>
      fx.world.request('POST', '/api/auth/recovery', { as: fx.session, json: body }),
    read: (fx) => get(fx, '/api/user', fx.session),
  },
  'POST /api/users': {
    body: () => ({
      username: 'newcomer',
      name: 'Newcomer',
      email: 'newcomer@example.test',
      password: 'newcomer-password',
      alert: true,
    }),
    read: (fx, result) => get(fx, `/api/users/${(result.body as { id: number }).id}`),
  },
  'PUT /api/users/:user_id': {
    setup: newUser,
    body: () => ({ username: 'renamed', name: 'Renamed', email: 'renamed@example.test' }),
    read: (fx) => get(fx, `/api/users/${fx.ids.user_id}`),
  },
  'POST /api/users/:user_id/password': {
    setup: newUser,
    body: () => ({ password: 'changed-password-1' }),
    // The new password signs in; the old one no longer does.
    read: async (fx) => {
      const signIn = (password: string) =>
        fx.world
          .request('POST', '/api/auth/login', { json: { auth: fx.user?.username, password } })
          .then((r) => r.status)
      return [await signIn('changed-password-1'), await signIn(fx.user?.password ?? '')]
    },
  },
  'POST /api/user/tokens': {
    body: () => ({ name: 'ci', expires_at: '2099-01-01T00:00:00Z' }),
    read: async (fx) => {
      const tokens = await fx.world.request('GET', '/api/user/tokens', { as: fx.admin.as })
      return (tokens.body as Array<{ name: string }>).filter((token) => token.name === 'ci')
    },
  },
  'POST /api/projects': {
    body: () => ({
      name: 'made by the case',
      alert: true,
      alert_chat: '42',
      max_parallel_tasks: 2,
    }),
    read: async (fx, result) => {
      const id = (result.body as { id: number }).id
      return [
        await get(fx, `/api/project/${id}`),
        await get(fx, `/api/project/${id}/keys`),
        await get(fx, `/api/project/${id}/environment`),
      ]
    },
  },
  'POST /api/projects/restore': {
    body: () => RESTORE_BODY,
    nested: ['meta', 'templates.0.survey_vars.0.values.0', 'integrations.0.matchers.0'],
    reported: ['restore_report'],
    read: (fx, result) => get(fx, `/api/project/${(result.body as { id: number }).id}/backup`),
  },
  'PUT /api/project/:project_id': {
    body: (fx) => ({ ...BODIES.projectUpdate(fx), id: fx.project.id, max_parallel_tasks: 3 }),
    read: (fx) => get(fx, project(fx)),
  },
  'POST /api/project/:project_id/users': {
    body: BODIES.teamAdd,
    read: (fx) => get(fx, `${project(fx)}/users?sort=username`),
  },
  'PUT /api/project/:project_id/users/:user_id': {
    setup: async (fx) => {
      await fx.world.addMember(fx.project.id, fx.candidate.id, 'guest')
      return { user_id: fx.candidate.id }
    },
    body: BODIES.teamRole,
    read: (fx) => get(fx, `${project(fx)}/users?sort=username`),
  },
  'POST /api/project/:project_id/keys': {
    body: (fx) => ({
      name: 'deploy',
      type: 'login_password',
      project_id: fx.project.id,
      login_password: { login: 'deploy', password: 'deploy-password' },
    }),
    nested: ['login_password'],
    read: readItem('keys'),
  },
  'PUT /api/project/:project_id/keys/:key_id': {
    setup: maker(KEYS),
    body: async (fx) => ({
      ...(await updateBody(KEYS, fx)),
      type: 'ssh',
      override_secret: true,
      ssh: { login: 'git', passphrase: '', private_key: fx.sshKey },
    }),
    nested: ['ssh'],
    read: readItem('keys', 'key_id'),
  },
  ...resourceCases(REPOSITORIES),
  ...resourceCases(INVENTORIES),
  'POST /api/project/:project_id/environment': {
    body: async (fx) => ({
      ...(await ENVIRONMENTS.body(fx, 'made by the case')),
      password: 'vault-password',
      secrets: [{ operation: 'create', type: 'var', name: 'TOKEN', secret: 'token-value' }],
    }),
    nested: ['secrets.0'],
    read: readItem('environment'),
  },
  'PUT /api/project/:project_id/environment/:environment_id': {
    setup: async (fx) => {
      const created = await fx.world.request('POST', `${project(fx)}/environment`, {
        as: fx.admin.as,
        json: {
          ...(await ENVIRONMENTS.body(fx, unique('env'))),
          secrets: [{ operation: 'create', type: 'var', name: 'OLD', secret: 'old-value' }],
        },
      })
      const environment_id = expectBody(created, 201, Item).id
      const read = await fx.world.request('GET', `${project(fx)}/environment/${environment_id}`, {
        as: fx.admin.as,
      })
      const secrets = (read.body as { secrets: Array<{ id: number }> }).secrets
      return { environment_id, secret_id: secrets[0]?.id ?? 0 }
    },
    body: async (fx) => ({
      ...(await updateBody(ENVIRONMENTS, fx)),
      secrets: [
        { operation: 'update', id: fx.ids.secret_id, name: 'RENAMED', type: 'env', secret: '' },
        { operation: 'create', type: 'var', name: 'NEW', secret: 'new-value' },
      ],
    }),
    nested: ['secrets.0', 'secrets.1'],
    read: readItem('environment', 'environment_id'),
  },
  ...resourceCases(VIEWS),
  'POST /api/project/:project_id/views/positions': {
    skip:
      'every key of the body is a view id (any other key is refused), so it has no room ' +
      'for a field Flagman does not declare',
    read: readList('views'),
  },
  ...resourceCases(TEMPLATES, {
    setup: ansibleNeeds,
    fields: templateFields,
    nested: TEMPLATE_NESTED,
  }),
  ...resourceCases(SCHEDULES),
  'PUT /api/project/:project_id/schedules/:schedule_id/active': {
    setup: maker(SCHEDULES),
    body: BODIES.scheduleActive,
    read: readItem('schedules', 'schedule_id'),
  },
  'POST /api/project/:project_id/schedules/validate': {
    body: BODIES.cronCheck,
    read: readList('schedules'),
  },
  'POST /api/project/:project_id/schedules/preview': {
    body: BODIES.cronPreview,
    read: readList('schedules'),
  },
  [`POST /api/project/:project_id/inventory/:inventory_id/terraform/aliases`]: {
    setup: terraformStates(),
    body: BODIES.alias,
    read: readList('inventory/:inventory_id/terraform/aliases'),
  },
  [`PUT /api/project/:project_id/inventory/:inventory_id/terraform/aliases/:alias_id`]: {
    setup: terraformStates(),
    body: BODIES.alias,
    read: readItem('inventory/:inventory_id/terraform/aliases', 'alias_id'),
  },
  'PUT /api/apps/:app_id': {
    body: () => appBody('Put app'),
    send: (fx, body) =>
      fx.world.request('PUT', '/api/apps/putapp', { as: fx.admin.as, json: body }),
    read: (fx) => get(fx, '/api/apps/putapp'),
  },
  'POST /api/apps/:app_id': {
    body: () => appBody('Posted app'),
    send: (fx, body) =>
      fx.world.request('POST', '/api/apps/postapp', { as: fx.admin.as, json: body }),
    read: (fx) => get(fx, '/api/apps/postapp'),
  },
  'POST /api/apps/:app_id/active': {
    body: () => ({ active: false }),
    send: (fx, body) =>
      fx.world.request('POST', '/api/apps/python/active', { as: fx.admin.as, json: body }),
    read: (fx) => get(fx, '/api/apps/python'),
  },
  'POST /api/project/:project_id/tasks': {
    setup: maker(TEMPLATES),
    body: (fx) => ({ ...BODIES.task(fx), message: 'started by the case', environment: '{}' }),
    read: async (fx, result) => taskFinished(fx, (result.body as { id: number }).id),
  },
  'POST /api/project/:project_id/tasks/:task_id/stop': {
    setup: finishedTask,
    body: BODIES.stop,
    read: readItem('tasks', 'task_id'),
  },
  ...resourceCases(INTEGRATIONS, {
    fields: () => ({ searchable: true, auth_header: 'X-Token' }),
  }),
  'POST /api/project/:project_id/integrations/:integration_id/matchers': {
    setup: maker(INTEGRATIONS),
    body: BODIES.matcher,
    read: readList('integrations/:integration_id/matchers'),
  },
  'PUT /api/project/:project_id/integrations/:integration_id/matchers/:matcher_id': {
    setup: integrationPart('integrations/:integration_id/matchers', 'matcher_id', 200, MATCHER),
    body: (fx) => ({ ...MATCHER(), id: fx.ids.matcher_id, name: 'renamed' }),
    read: readItem('integrations/:integration_id/matchers', 'matcher_id'),
  },
  'POST /api/project/:project_id/integrations/:integration_id/values': {
    setup: maker(INTEGRATIONS),
    body: BODIES.value,
    read: readList('integrations/:integration_id/values'),
  },
  'PUT /api/project/:project_id/integrations/:integration_id/values/:value_id': {
    setup: integrationPart('integrations/:integration_id/values', 'value_id', 201, VALUE),
    body: (fx) => ({ ...VALUE(), id: fx.ids.value_id, name: 'renamed' }),
    read: readItem('integrations/:integration_id/values', 'value_id'),
  },
  'POST /api/runners': {
    body: () => ({
      name: 'global runner',
      webhook: 'https://example.test/hook',
      max_parallel_tasks: 2,
      active: true,
      tag: 'linux',
    }),
    read: readGlobalRunner,
  },
  'PUT /api/runners/:runner_id': {
    setup: globalRunner,
    body: () => ({ name: 'renamed runner', max_parallel_tasks: 4 }),
    read: readGlobalRunner,
  },
  'POST /api/runners/:runner_id': {
    setup: globalRunner,
    body: () => ({ name: 'posted runner', active: false }),
    read: readGlobalRunner,
  },
  'POST /api/runners/:runner_id/active': {
    setup: globalRunner,
    body: BODIES.runnerActive,
    read: readGlobalRunner,
  },
  'POST /api/project/:project_id/runners': {
    body: async (fx) => PROJECT_RUNNERS.body(fx, 'made by the case'),
    read: readItem('runners'),
  },
  'PUT /api/project/:project_id/runners/:runner_id': {
    setup: maker(PROJECT_RUNNERS),
    body: (fx) => updateBody(PROJECT_RUNNERS, fx),
    read: readItem('runners', 'runner_id'),
  },
  'POST /api/project/:project_id/runners/:runner_id': {
    setup: maker(PROJECT_RUNNERS),
    body: BODIES.runnerPost,
    read: readItem('runners', 'runner_id'),
  },
  'POST /api/project/:project_id/runners/:runner_id/active': {
    setup: maker(PROJECT_RUNNERS),
    body: BODIES.runnerActive,
    read: readItem('runners', 'runner_id'),
  },
  'POST /api/internal/runners': {
    body: () => ({
      registration_token: REGISTRATION_TOKEN,
      name: 'registered runner',
      webhook: 'https://example.test/registered',
      max_parallel_tasks: 1,
      tag: 'arm',
    }),
    send: (fx, body) => fx.world.request('POST', '/api/internal/runners', { json: body }),
    read: (fx) => runnersNamed(fx, /^registered runner$/),
  },
  'PUT /api/internal/runners': {
    setup: async (fx) => {
      const name = unique('reporting')
      const result = await fx.world.request('POST', '/api/internal/runners', {
        json: { registration_token: REGISTRATION_TOKEN, name },
      })
      expect(result.status, result.text).toBe(200)
      fx.runnerToken = (result.body as { token: string }).token
    },
    // A report of a job that is not the runner's: refused alike, changing nothing.
    status: 400,
    body: () => ({
      Jobs: [
        {
          ID: 999999,
          Status: 'running',
          LogRecords: [{ time: '2030-01-01T00:00:00Z', message: 'hello' }],
          Commit: { hash: 'abc123', message: 'a commit' },
        },
      ],
    }),
    nested: ['Jobs.0', 'Jobs.0.LogRecords.0', 'Jobs.0.Commit'],
    send: (fx, body) =>
      fx.world.request('PUT', '/api/internal/runners', {
        json: body,
        headers: { 'X-Runner-Token': fx.runnerToken ?? '' },
      }),
    read: (fx) => runnersNamed(fx, /^reporting\d+$/),
  },
  // No subscription is ever needed: every key is refused alike.
  'POST /api/subscription': {
    body: () => ({ key: 'ABCD-1234' }),
    status: 400,
    read: (fx) => get(fx, '/api/subscription'),
  },
}

function appBody(title: string): Record<string, unknown> {
  return {
    title,
    active: true,
    priority: 3,
    icon: 'mdi-console',
    color: 'teal',
    dark_color: 'cyan',
    path: '/usr/bin/env',
    args: ['bash'],
  }
}

/** Routes without a `body` in the contract whose server reads one itself, with its schema. */
const SELF_READ_BODIES: Record<string, z.ZodType> = {
  'POST /api/user/tokens': CreateTokenBody,
}

const keyOf = (route: RouteDef) => `${route.method} ${route.path}`
const WRITE_ROUTES = ROUTES.filter((route) => route.method !== 'GET' && route.body)
const schemaOf = (key: string): z.ZodType | undefined =>
  WRITE_ROUTES.find((route) => keyOf(route) === key)?.body ?? SELF_READ_BODIES[key]

describe('the unknown-fields table', () => {
  it('has exactly one case for every write route with a body', () => {
    expect(WRITE_ROUTES.length).toBeGreaterThan(0)
    const routes = [...WRITE_ROUTES.map(keyOf), ...Object.keys(SELF_READ_BODIES)]
    const missing = routes.filter((key) => !(key in CASES))
    const stale = Object.keys(CASES).filter((key) => !routes.includes(key))
    expect({ missing, stale }).toEqual({ missing: [], stale: [] })
    for (const key of Object.keys(SELF_READ_BODIES)) {
      const route = ROUTES.find((r) => keyOf(r) === key)
      expect(route?.body, `${key} declares its body now: move it to the contract's`).toBeUndefined()
    }
  })

  it('gives a body to every case it runs, and a reason to every one it skips', () => {
    for (const [key, c] of Object.entries(CASES)) {
      if (c.skip) expect(c.body, key).toBeUndefined()
      else expect(c.body, key).toBeDefined()
    }
  })
})

interface Side {
  world: World
  admin: Person
  candidate: Omit<Person, 'as'>
}

interface Outcome {
  status: number
  answer: unknown
  state: unknown
  /** Where undeclared fields went into the body. */
  places: string[]
}

describe.each(dialects())('undeclared body fields on %s', (dialect) => {
  const servers: TestServer[] = []
  let plain: Side
  let extra: Side
  let sshKey: string

  /** One of two servers started alike, where every case makes the same things. */
  async function side(): Promise<Side> {
    const server = await startTestServer(dialect, SERVER_ENV)
    servers.push(server)
    const world = new World(server)
    const admin = await world.admin()
    const candidate = await world.createUser({ name: 'candidate' })
    // Whether bash is active must not depend on the host.
    const activate = await world.request('POST', '/api/apps/bash/active', {
      as: admin.as,
      json: { active: true },
    })
    expect(activate.status, activate.text).toBe(204)
    return { world, admin, candidate }
  }

  beforeAll(async () => {
    sshKey = generateSshKeys().plain
    ;[plain, extra] = await Promise.all([side(), side()])
  }, 60_000)
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()))
  })

  async function run(at: Side, key: string, c: WriteCase, undeclared: boolean): Promise<Outcome> {
    const created = await at.world.request('POST', '/api/projects', {
      as: at.admin.as,
      json: { name: 'unknown fields' },
    })
    const fresh = expectBody(created, 201, Project)
    const fx: Fx = {
      world: at.world,
      project: fresh,
      owner: at.admin,
      admin: at.admin,
      candidate: at.candidate,
      ids: { project_id: fresh.id },
      sshKey,
    }
    Object.assign(fx.ids, await c.setup?.(fx))
    const valid = await c.body?.(fx)
    const places: string[] = []
    const schema = schemaOf(key)
    const body = undeclared && schema ? withUndeclared(schema, valid, '', places) : valid
    const [method, path] = key.split(' ') as [string, string]
    const options: HttpOptions = { as: fx.admin.as, json: body }
    const result = c.send
      ? await c.send(fx, body)
      : await fx.world.request(method, buildPath(path, fx.ids), options)
    const answer = isRecord(result.body)
      ? Object.fromEntries(
          Object.entries(result.body).filter(([field]) => !c.reported?.includes(field)),
        )
      : (result.body ?? result.text)
    return { status: result.status, answer, state: await c.read(fx, result), places }
  }

  const runnable = Object.entries(CASES).filter(([, c]) => !c.skip)
  it.each(runnable)('%s', async (key, c) => {
    const without = await run(plain, key, c, false)
    const route = ROUTES.find((r) => keyOf(r) === key)
    const success = c.status ?? route?.status ?? 201
    expect(without.status, `the valid body: ${JSON.stringify(without.answer)}`).toBe(success)

    const withExtra = await run(extra, key, c, true)
    // Undeclared fields went in at the top and into every nested object the case names.
    expect(withExtra.places).toContain('')
    expect(withExtra.places).toEqual(expect.arrayContaining(c.nested ?? []))

    expect(withExtra.status, JSON.stringify(withExtra.answer)).toBe(without.status)
    expect(normalise(withExtra.answer)).toEqual(normalise(without.answer))
    expect(normalise(withExtra.state)).toEqual(normalise(without.state))
    const seen = JSON.stringify([withExtra.answer, withExtra.state])
    for (const mark of MARKS) expect(seen, 'an undeclared field was kept').not.toContain(mark)
  })
})
