import {
  buildPath,
  Project,
  ProjectRoleInfo,
  ROUTES,
  TeamMember,
  TerraformLockStatus,
  type RouteDef,
} from '@flagman/contract'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { ANONYMOUS, errorOf, expectBody, expectError } from '../support/http.js'
import {
  BODIES,
  ENVIRONMENTS,
  finishedTask,
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
  TEMPLATES,
  TERRAFORM_BASE,
  terraformStates,
  terraformWorkspace,
  updateBody,
  VALUE,
  view,
  VIEWS,
  type CaseFixture,
  type ResourceKind,
} from '../support/route-cases.js'
import { startTestServer, type TestServer } from '../support/server.js'

/*
 * Every project route × every kind of caller → the status it must answer. The tests are
 * generated from the contract's ROUTES, so a project route added without a row here fails.
 */

const CALLERS = [
  'admin',
  'owner',
  'manager',
  'task_runner',
  'guest',
  'non_member',
  'anonymous',
] as const
type Caller = (typeof CALLERS)[number]
type Member = Exclude<Caller, 'admin' | 'non_member' | 'anonymous'>

interface Fixture extends CaseFixture {
  people: Record<Exclude<Caller, 'anonymous'>, Person>
}

interface Snapshot {
  project: Project | null
  team: TeamMember[]
  /** The list of the row's resource kind, when the row is about one. */
  items: Item[]
}

interface Row {
  expect: Record<Caller, number>
  /** Calls that change the project get a project of their own, so order never matters. */
  fresh?: boolean
  candidateMember?: boolean
  /** Creates what the call works on and returns its path parameters (e.g. `{ key_id }`). */
  setup?: (fx: Fixture) => Promise<Record<string, number>>
  /** Path segment of the resource list compared before and after, e.g. `keys`. */
  segment?: string
  body?: (fx: Fixture) => unknown
  /** The allowed call answers plain text rather than JSON or nothing. */
  plainText?: boolean
  /** What an allowed call changed; a refused call must change nothing. */
  effect?: (fx: Fixture, caller: Caller, before: Snapshot, after: Snapshot) => void
  /** The query string of the call, e.g. `?from=1&to=2`. */
  query?: (fx: Fixture) => string
  /** Checks what no list shows (a lock), after the call; `allowed` when it succeeded. */
  check?: (fx: Fixture, allowed: boolean) => Promise<void>
}

/** Members (and admins) read; outsiders get 404, anonymous callers 401. */
const READ = {
  admin: 200,
  owner: 200,
  manager: 200,
  task_runner: 200,
  guest: 200,
  non_member: 404,
  anonymous: 401,
}

/** updateProject (2) and manageProjectUsers (8): owners and admins only. */
const OWNER_ONLY = {
  admin: 204,
  owner: 204,
  manager: 403,
  task_runner: 403,
  guest: 403,
  non_member: 404,
  anonymous: 401,
}

/** manageProjectResources (4): owners, managers and admins. */
const RESOURCES = (status: number) => ({
  admin: status,
  owner: status,
  manager: status,
  task_runner: 403,
  guest: 403,
  non_member: 404,
  anonymous: 401,
})

const roleOf = (team: TeamMember[], id: number) => team.find((m) => m.id === id)?.role

const PROJECT_ROWS: Record<string, Row> = {
  'GET /api/project/:project_id': { expect: READ },
  'PUT /api/project/:project_id': {
    expect: OWNER_ONLY,
    fresh: true,
    body: BODIES.projectUpdate,
    effect: (fx, _caller, before, after) => {
      expect(after.project).toEqual({ ...before.project, name: `${fx.project.name} renamed` })
    },
  },
  'DELETE /api/project/:project_id': {
    expect: OWNER_ONLY,
    fresh: true,
    effect: (_fx, _caller, _before, after) => expect(after.project).toBeNull(),
  },
  'GET /api/project/:project_id/role': { expect: READ },
  'DELETE /api/project/:project_id/me': {
    // The owner may not leave; an admin who is not a member has nothing to leave.
    expect: {
      admin: 204,
      owner: 400,
      manager: 204,
      task_runner: 204,
      guest: 204,
      non_member: 404,
      anonymous: 401,
    },
    fresh: true,
    effect: (fx, caller, before, after) => {
      if (caller === 'admin') expect(after).toEqual(before)
      else {
        const id = fx.people[caller as Member].id
        expect(after.team).toEqual(before.team.filter((m) => m.id !== id))
      }
    },
  },
  'GET /api/project/:project_id/users': { expect: READ },
  'POST /api/project/:project_id/users': {
    expect: OWNER_ONLY,
    fresh: true,
    body: BODIES.teamAdd,
    effect: (fx, _caller, before, after) => {
      expect(roleOf(before.team, fx.candidate.id)).toBeUndefined()
      expect(roleOf(after.team, fx.candidate.id)).toBe('guest')
    },
  },
  'GET /api/project/:project_id/users/:user_id': {
    expect: READ,
    setup: async (fx) => ({ user_id: fx.people.guest.id }),
  },
  'PUT /api/project/:project_id/users/:user_id': {
    expect: OWNER_ONLY,
    fresh: true,
    candidateMember: true,
    setup: async (fx) => ({ user_id: fx.candidate.id }),
    body: BODIES.teamRole,
    effect: (fx, _caller, before, after) => {
      expect(roleOf(before.team, fx.candidate.id)).toBe('guest')
      expect(roleOf(after.team, fx.candidate.id)).toBe('task_runner')
    },
  },
  'DELETE /api/project/:project_id/users/:user_id': {
    expect: OWNER_ONLY,
    fresh: true,
    candidateMember: true,
    setup: async (fx) => ({ user_id: fx.candidate.id }),
    effect: (fx, _caller, before, after) => {
      expect(roleOf(before.team, fx.candidate.id)).toBe('guest')
      expect(roleOf(after.team, fx.candidate.id)).toBeUndefined()
    },
  },
  'GET /api/project/:project_id/backup': { expect: READ },
  // No channel is configured on this server: an allowed call answers an empty list.
  'POST /api/project/:project_id/alerts/test': {
    expect: { ...OWNER_ONLY, admin: 200, owner: 200 },
    effect: (_fx, _caller, before, after) => expect(after).toEqual(before),
  },
  'GET /api/project/:project_id/events': { expect: READ },
  'GET /api/project/:project_id/events/last': { expect: READ },
}

/** The six rows every project resource has (list, create, get, update, delete, refs). */
function resourceRows(kind: ResourceKind): Record<string, Row> {
  const base = `/api/project/:project_id/${kind.segment}`
  const item = `${base}/:${kind.idParam}`
  const needs = needsOf(kind)
  const create = maker(kind)
  const find = (snapshot: Snapshot, fx: Fixture) =>
    snapshot.items.find((i) => i.id === fx.ids[kind.idParam])
  const rows: Record<string, Row> = {
    [`GET ${base}`]: { expect: READ, setup: create, segment: kind.segment },
    [`POST ${base}`]: {
      expect: RESOURCES(201),
      fresh: true,
      setup: needs,
      segment: kind.segment,
      body: (fx) => kind.body(fx, `created by ${fx.project.name}`),
      effect: (fx, _caller, before, after) => {
        expect(after.items.length).toBe(before.items.length + 1)
        expect(after.items.map((i) => i[kind.label])).toContain(`created by ${fx.project.name}`)
      },
    },
    [`GET ${item}`]: { expect: READ, setup: create, segment: kind.segment },
    [`PUT ${item}`]: {
      expect: RESOURCES(204),
      fresh: true,
      setup: create,
      segment: kind.segment,
      body: (fx) => updateBody(kind, fx),
      effect: (fx, _caller, before, after) => {
        expect(find(before, fx)?.[kind.label]).not.toBe('renamed')
        expect(find(after, fx)?.[kind.label]).toBe('renamed')
      },
    },
    [`DELETE ${item}`]: {
      expect: RESOURCES(204),
      fresh: true,
      setup: create,
      segment: kind.segment,
      effect: (fx, _caller, before, after) => {
        expect(find(before, fx)).toBeDefined()
        expect(find(after, fx)).toBeUndefined()
      },
    },
  }
  if (kind.refs) rows[`GET ${item}/refs`] = { expect: READ, setup: create }
  return rows
}

const RESOURCE_ROWS: Record<string, Row> = {
  ...resourceRows(KEYS),
  ...resourceRows(REPOSITORIES),
  ...resourceRows(INVENTORIES),
  ...resourceRows(ENVIRONMENTS),
  ...resourceRows(VIEWS),
  'POST /api/project/:project_id/views/positions': {
    expect: RESOURCES(204),
    fresh: true,
    segment: 'views',
    setup: (fx) => view(fx, 1),
    body: BODIES.viewPositions,
    effect: (fx, _caller, before, after) => {
      const position = (s: Snapshot) => s.items.find((v) => v.id === fx.ids.view_id)?.position
      expect(position(before)).toBe(1)
      expect(position(after)).toBe(7)
    },
  },
}

const unchanged = (_fx: Fixture, _caller: Caller, before: Snapshot, after: Snapshot) =>
  expect(after).toEqual(before)

const listed = (snapshot: Snapshot, id: number | undefined) =>
  snapshot.items.some((item) => item.id === id)

const ALIASES = 'inventory/:inventory_id/terraform/aliases'
const STATES = 'inventory/:inventory_id/terraform/states'

const WORKSPACE_ROWS: Record<string, Row> = {
  'POST /api/project/:project_id/templates/:template_id/inventory/:inventory_id/attach': {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformWorkspace(false),
    // The project's inventory list holds only inventories no template owns.
    segment: 'inventory',
    effect: (fx, _caller, before, after) => {
      expect(listed(before, fx.ids.inventory_id)).toBe(true)
      expect(listed(after, fx.ids.inventory_id)).toBe(false)
    },
  },
  'POST /api/project/:project_id/templates/:template_id/inventory/:inventory_id/detach': {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformWorkspace(true),
    segment: 'inventory',
    effect: (fx, _caller, before, after) => {
      expect(listed(before, fx.ids.inventory_id)).toBe(false)
      expect(listed(after, fx.ids.inventory_id)).toBe(true)
    },
  },
  'POST /api/project/:project_id/templates/:template_id/inventory/:inventory_id/set_default': {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformWorkspace(true),
    segment: 'templates',
    effect: (fx, _caller, before, after) => {
      const inventoryOf = (s: Snapshot) =>
        s.items.find((i) => i.id === fx.ids.template_id)?.inventory_id
      expect(inventoryOf(before)).not.toBe(fx.ids.inventory_id)
      expect(inventoryOf(after)).toBe(fx.ids.inventory_id)
    },
  },
  [`GET ${TERRAFORM_BASE}/aliases`]: { expect: READ, setup: terraformStates() },
  [`POST ${TERRAFORM_BASE}/aliases`]: {
    expect: RESOURCES(201),
    fresh: true,
    setup: terraformStates(),
    segment: ALIASES,
    body: BODIES.alias,
    effect: (_fx, _caller, before, after) =>
      expect(after.items).toHaveLength(before.items.length + 1),
  },
  [`GET ${TERRAFORM_BASE}/aliases/:alias_id`]: { expect: READ, setup: terraformStates() },
  [`PUT ${TERRAFORM_BASE}/aliases/:alias_id`]: {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformStates(),
    segment: ALIASES,
    body: BODIES.alias,
    effect: (fx, _caller, before, after) => {
      const keyOf = (s: Snapshot) => s.items.find((i) => i.id === fx.ids.alias_id)?.auth_key_id
      expect(keyOf(before)).toBe(fx.ids.auth_key_id)
      expect(keyOf(after)).toBe(fx.ids.key_id)
    },
  },
  [`DELETE ${TERRAFORM_BASE}/aliases/:alias_id`]: {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformStates(),
    segment: ALIASES,
    effect: (fx, _caller, before, after) => {
      expect(listed(before, fx.ids.alias_id)).toBe(true)
      expect(listed(after, fx.ids.alias_id)).toBe(false)
    },
  },
  [`GET ${TERRAFORM_BASE}/states`]: { expect: READ, setup: terraformStates() },
  [`GET ${TERRAFORM_BASE}/states/latest`]: { expect: READ, setup: terraformStates() },
  [`GET ${TERRAFORM_BASE}/states/diff`]: {
    expect: READ,
    setup: terraformStates(),
    query: (fx) => `?from=${String(fx.ids.state_id)}&to=${String(fx.ids.newer_state_id)}`,
  },
  [`GET ${TERRAFORM_BASE}/states/:state_id`]: { expect: READ, setup: terraformStates() },
  [`DELETE ${TERRAFORM_BASE}/states/:state_id`]: {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformStates(),
    segment: STATES,
    effect: (fx, _caller, before, after) => {
      expect(listed(before, fx.ids.state_id)).toBe(true)
      expect(listed(after, fx.ids.state_id)).toBe(false)
    },
  },
  [`POST ${TERRAFORM_BASE}/states/:state_id/restore`]: {
    expect: RESOURCES(201),
    fresh: true,
    setup: terraformStates(),
    segment: STATES,
    effect: (fx, _caller, before, after) => {
      expect(after.items).toHaveLength(before.items.length + 1)
      expect(after.items[0]).toMatchObject({ source: 'restore', restored_from: fx.ids.state_id })
    },
  },
  [`GET ${TERRAFORM_BASE}/lock`]: { expect: READ, setup: terraformStates(true) },
  [`DELETE ${TERRAFORM_BASE}/lock`]: {
    expect: RESOURCES(204),
    fresh: true,
    setup: terraformStates(true),
    effect: unchanged,
    check: async (fx, allowed) => {
      const lock = await fx.world.request('GET', buildPath(`${TERRAFORM_BASE}/lock`, fx.ids), {
        as: fx.people.owner.as,
      })
      expect(expectBody(lock, 200, TerraformLockStatus).locked).toBe(!allowed)
    },
  },
}

const TEMPLATE_ROWS: Record<string, Row> = {
  ...resourceRows(TEMPLATES),
  'GET /api/project/:project_id/templates/:template_id/schedules': {
    expect: READ,
    setup: maker(TEMPLATES),
  },
  'GET /api/project/:project_id/views/:view_id/templates': { expect: READ, setup: view },
}

const SCHEDULE_ROWS: Record<string, Row> = {
  ...resourceRows(SCHEDULES),
  'PUT /api/project/:project_id/schedules/:schedule_id/active': {
    expect: RESOURCES(204),
    fresh: true,
    setup: maker(SCHEDULES),
    segment: 'schedules',
    body: BODIES.scheduleActive,
    effect: (fx, _caller, before, after) => {
      const active = (s: Snapshot) => s.items.find((i) => i.id === fx.ids.schedule_id)?.active
      expect(active(before)).toBe(true)
      expect(active(after)).toBe(false)
    },
  },
  'POST /api/project/:project_id/schedules/validate': {
    expect: RESOURCES(200),
    segment: 'schedules',
    body: BODIES.cronCheck,
    effect: (_fx, _caller, before, after) => expect(after).toEqual(before),
  },
  // Any member may preview the times of an expression: nothing is stored.
  'POST /api/project/:project_id/schedules/preview': {
    expect: READ,
    segment: 'schedules',
    body: BODIES.cronPreview,
    effect: (_fx, _caller, before, after) => expect(after).toEqual(before),
  },
  'GET /api/project/:project_id/schedules/:schedule_id/runs': {
    expect: READ,
    setup: maker(SCHEDULES),
  },
}

/** Rows of an integration's matchers or values: list, create, get, update, delete, refs. */
function integrationPartRows(
  part: 'matchers' | 'values',
  idParam: string,
  createStatus: 200 | 201,
  body: () => Record<string, unknown>,
): Record<string, Row> {
  const segment = `integrations/:integration_id/${part}`
  const base = `/api/project/:project_id/${segment}`
  const item = `${base}/:${idParam}`
  const create = integrationPart(segment, idParam, createStatus, body)
  const find = (snapshot: Snapshot, fx: Fixture) =>
    snapshot.items.find((i) => i.id === fx.ids[idParam])
  return {
    [`GET ${base}`]: { expect: READ, setup: create },
    [`POST ${base}`]: {
      expect: RESOURCES(createStatus),
      fresh: true,
      setup: maker(INTEGRATIONS),
      segment,
      body: () => ({ ...body(), name: 'created' }),
      effect: (_fx, _caller, before, after) => {
        expect(after.items.length).toBe(before.items.length + 1)
        expect(after.items.map((i) => i.name)).toContain('created')
      },
    },
    [`GET ${item}`]: { expect: READ, setup: create },
    [`PUT ${item}`]: {
      expect: RESOURCES(204),
      fresh: true,
      setup: create,
      segment,
      body: (fx) => ({ ...body(), id: fx.ids[idParam], name: 'renamed' }),
      effect: (fx, _caller, before, after) => {
        expect(find(before, fx)?.name).not.toBe('renamed')
        expect(find(after, fx)?.name).toBe('renamed')
      },
    },
    [`DELETE ${item}`]: {
      expect: RESOURCES(204),
      fresh: true,
      setup: create,
      segment,
      effect: (fx, _caller, before, after) => {
        expect(find(before, fx)).toBeDefined()
        expect(find(after, fx)).toBeUndefined()
      },
    },
    [`GET ${item}/refs`]: { expect: READ, setup: create },
  }
}

/** Rows of aliases, project-level (`integrations/aliases`) or of one integration. */
function aliasRows(segment: string): Record<string, Row> {
  const base = `/api/project/:project_id/${segment}`
  const create = integrationPart(segment, 'alias_id', 200)
  const listed = (snapshot: Snapshot, fx: Fixture) =>
    snapshot.items.some((i) => i.id === fx.ids.alias_id)
  const needs = segment.includes(':integration_id') ? maker(INTEGRATIONS) : undefined
  return {
    [`GET ${base}`]: { expect: READ, setup: create },
    [`POST ${base}`]: {
      expect: RESOURCES(200),
      fresh: true,
      ...(needs ? { setup: needs } : {}),
      segment,
      effect: (_fx, _caller, before, after) =>
        expect(after.items).toHaveLength(before.items.length + 1),
    },
    [`DELETE ${base}/:alias_id`]: {
      expect: RESOURCES(204),
      fresh: true,
      setup: create,
      segment,
      effect: (fx, _caller, before, after) => {
        expect(listed(before, fx)).toBe(true)
        expect(listed(after, fx)).toBe(false)
      },
    },
  }
}

const INTEGRATION_ROWS: Record<string, Row> = {
  ...resourceRows(INTEGRATIONS),
  'GET /api/project/:project_id/integrations/:integration_id/deliveries': {
    expect: READ,
    setup: maker(INTEGRATIONS),
  },
  ...integrationPartRows('matchers', 'matcher_id', 200, MATCHER),
  ...integrationPartRows('values', 'value_id', 201, VALUE),
  ...aliasRows('integrations/aliases'),
  ...aliasRows('integrations/:integration_id/aliases'),
}

const PROJECT_RUNNER_ROWS: Record<string, Row> = {
  ...resourceRows(PROJECT_RUNNERS),
  // The compatible API also takes an update as POST.
  'POST /api/project/:project_id/runners/:runner_id': {
    expect: RESOURCES(204),
    fresh: true,
    setup: maker(PROJECT_RUNNERS),
    segment: 'runners',
    body: BODIES.runnerPost,
    effect: (fx, _caller, before, after) => {
      const name = (s: Snapshot) => s.items.find((i) => i.id === fx.ids.runner_id)?.name
      expect(name(before)).not.toBe('posted')
      expect(name(after)).toBe('posted')
    },
  },
  'POST /api/project/:project_id/runners/:runner_id/active': {
    expect: RESOURCES(204),
    fresh: true,
    setup: maker(PROJECT_RUNNERS),
    segment: 'runners',
    body: BODIES.runnerActive,
    effect: (fx, _caller, before, after) => {
      const active = (s: Snapshot) => s.items.find((i) => i.id === fx.ids.runner_id)?.active
      expect(active(before)).toBe(true)
      expect(active(after)).toBe(false)
    },
  },
}

/** Runners (task_runner and up) may; guests may not. */
const RUNNERS = (status: number) => ({
  admin: status,
  owner: status,
  manager: status,
  task_runner: status,
  guest: 403,
  non_member: 404,
  anonymous: 401,
})

const TASK_ROWS: Record<string, Row> = {
  'GET /api/project/:project_id/tasks': { expect: READ },
  'GET /api/project/:project_id/tasks/last': { expect: READ },
  'POST /api/project/:project_id/tasks': {
    expect: RUNNERS(201),
    fresh: true,
    segment: 'tasks',
    setup: maker(TEMPLATES),
    body: BODIES.task,
    effect: (_fx, _caller, before, after) =>
      expect(after.items).toHaveLength(before.items.length + 1),
  },
  'GET /api/project/:project_id/tasks/:task_id': { expect: READ, setup: finishedTask },
  'GET /api/project/:project_id/tasks/:task_id/output': { expect: READ, setup: finishedTask },
  'GET /api/project/:project_id/tasks/:task_id/output/count': {
    expect: READ,
    setup: finishedTask,
  },
  'GET /api/project/:project_id/tasks/:task_id/raw_output': {
    expect: READ,
    setup: finishedTask,
    plainText: true,
  },
  'GET /api/project/:project_id/tasks/:task_id/output/search': {
    expect: READ,
    setup: finishedTask,
    query: () => '?q=hello',
  },
  'GET /api/project/:project_id/output/search': { expect: READ, query: () => '?q=hello' },
  'POST /api/project/:project_id/tasks/:task_id/stop': {
    expect: RUNNERS(204),
    segment: 'tasks',
    setup: finishedTask,
    body: BODIES.stop,
    effect: unchanged,
  },
  'POST /api/project/:project_id/tasks/:task_id/confirm': {
    expect: RUNNERS(400),
    segment: 'tasks',
    setup: finishedTask,
  },
  'POST /api/project/:project_id/tasks/:task_id/reject': {
    expect: RUNNERS(400),
    segment: 'tasks',
    setup: finishedTask,
  },
  'DELETE /api/project/:project_id/tasks/:task_id': {
    expect: {
      admin: 204,
      owner: 401,
      manager: 401,
      task_runner: 401,
      guest: 401,
      non_member: 404,
      anonymous: 401,
    },
    fresh: true,
    segment: 'tasks',
    setup: finishedTask,
    effect: (fx, _caller, before, after) => {
      expect(before.items.map((t) => t.id)).toContain(fx.ids.task_id)
      expect(after.items.map((t) => t.id)).not.toContain(fx.ids.task_id)
    },
  },
  'GET /api/project/:project_id/templates/:template_id/tasks': {
    expect: READ,
    setup: maker(TEMPLATES),
  },
  'GET /api/project/:project_id/templates/:template_id/tasks/last': {
    expect: READ,
    setup: maker(TEMPLATES),
  },
  'GET /api/project/:project_id/templates/:template_id/stats': {
    expect: READ,
    setup: maker(TEMPLATES),
  },
}

const MATRIX: Record<string, Row> = {
  ...PROJECT_ROWS,
  ...RESOURCE_ROWS,
  ...TEMPLATE_ROWS,
  ...WORKSPACE_ROWS,
  ...SCHEDULE_ROWS,
  ...TASK_ROWS,
  ...INTEGRATION_ROWS,
  ...PROJECT_RUNNER_ROWS,
}

const keyOf = (route: RouteDef) => `${route.method} ${route.path}`
const PROJECT_ROUTES = ROUTES.filter((route) => route.access.kind === 'project')
const NON_PUBLIC_ROUTES = ROUTES.filter((route) => route.access.kind !== 'public')

describe('the authorisation matrix table', () => {
  it('has exactly one row for every project route of the contract', () => {
    expect(PROJECT_ROUTES.length).toBeGreaterThan(0)
    const routes = PROJECT_ROUTES.map(keyOf)
    // A new project route needs a row in MATRIX; a row whose route is gone must go too.
    const missing = routes.filter((key) => !(key in MATRIX))
    const stale = Object.keys(MATRIX).filter((key) => !routes.includes(key))
    expect({ missing, stale }).toEqual({ missing: [], stale: [] })
    expect(Object.keys(MATRIX).sort()).toEqual([...routes].sort())
  })

  it('expects a status for every kind of caller in every row', () => {
    for (const [key, row] of Object.entries(MATRIX)) {
      expect(Object.keys(row.expect).sort(), key).toEqual([...CALLERS].sort())
    }
  })
})

describe.each(dialects())('authorisation on %s', (dialect) => {
  let server: TestServer
  let world: World
  let people: Fixture['people']
  let candidate: Fixture['candidate']
  let shared: Project

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    const [admin, owner, manager, taskRunner, guest, nonMember] = await Promise.all([
      world.admin(),
      world.newUser({ name: 'owner' }),
      world.newUser({ name: 'manager' }),
      world.newUser({ name: 'task runner' }),
      world.newUser({ name: 'guest' }),
      world.newUser({ name: 'non-member' }),
    ])
    people = { admin, owner, manager, task_runner: taskRunner, guest, non_member: nonMember }
    candidate = await world.createUser({ name: 'candidate' })
    // Non-admins may only use active apps; whether bash is active must not depend on the host.
    const activate = await world.request('POST', '/api/apps/bash/active', {
      as: admin.as,
      json: { active: true },
    })
    expect(activate.status, activate.text).toBe(204)
    shared = await teamProject(false)
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A project owned by `owner`, with a manager, a task runner and a guest; no admin. */
  async function teamProject(withCandidate: boolean): Promise<Project> {
    const project = await world.newProject(people.owner, unique('matrix'))
    await world.addMember(project.id, people.manager.id, 'manager')
    await world.addMember(project.id, people.task_runner.id, 'task_runner')
    await world.addMember(project.id, people.guest.id, 'guest')
    if (withCandidate) await world.addMember(project.id, candidate.id, 'guest')
    return project
  }

  async function snapshot(projectId: number, segment: string | undefined): Promise<Snapshot> {
    const as = people.admin.as
    if (segment) {
      // Resource rows compare their list only; project and team do not change with it.
      const list = await world.request('GET', `/api/project/${projectId}/${segment}`, { as })
      return { project: null, team: [], items: expectBody(list, 200, z.array(Item)) }
    }
    const found = await world.request('GET', `/api/project/${projectId}`, { as })
    if (found.status === 404) return { project: null, team: [], items: [] }
    const team = await world.request('GET', `/api/project/${projectId}/users?sort=username`, {
      as,
    })
    return {
      project: expectBody(found, 200, Project),
      team: expectBody(team, 200, z.array(TeamMember)),
      items: [],
    }
  }

  /** What each row's setup made in the shared project, made once per row. */
  const sharedSetups = new Map<string, Promise<Record<string, number>>>()

  async function setUp(key: string, row: Row, fx: Fixture): Promise<void> {
    if (!row.setup) return
    if (fx.project.id !== shared.id) {
      Object.assign(fx.ids, await row.setup(fx))
      return
    }
    let made = sharedSetups.get(key)
    if (!made) {
      const setup = row.setup
      made = (async () => ({ ...fx.ids, ...(await setup(fx)) }))()
      sharedSetups.set(key, made)
    }
    Object.assign(fx.ids, await made)
  }

  it('starts from a project the admin is not a member of', async () => {
    const role = await world.request('GET', `/api/project/${shared.id}/role`, {
      as: people.admin.as,
    })
    expect(expectBody(role, 200, ProjectRoleInfo)).toEqual({ role: '', permissions: 0 })
    const team = (await snapshot(shared.id, undefined)).team.map((m) => m.role).sort()
    expect(team).toEqual(['guest', 'manager', 'owner', 'task_runner'])
  })

  // Routes without a row fail the table test above, once, by name.
  const covered = PROJECT_ROUTES.filter((route) => keyOf(route) in MATRIX)
  describe.each(covered.map((route) => [keyOf(route), route] as const))('%s', (key, route) => {
    it.each(CALLERS)('as %s', async (caller) => {
      const row = MATRIX[key]
      if (!row) throw new Error(`No row for ${key} in the authorisation matrix`)
      const expected = row.expect[caller]
      // A call that is refused must change nothing, so only allowed ones need a fresh project
      // (with `candidateMember` the candidate must be a member whatever the outcome).
      const fresh = row.fresh && (expected < 400 || row.candidateMember)
      const project = fresh ? await teamProject(row.candidateMember ?? false) : shared
      const fx: Fixture = {
        world,
        project,
        people,
        owner: people.owner,
        candidate,
        ids: { project_id: project.id },
      }
      await setUp(key, row, fx)
      const writes = route.method !== 'GET'
      const segment = row.segment && buildPath(row.segment, fx.ids)
      const before = writes ? await snapshot(project.id, segment) : undefined

      const query = row.query?.(fx) ?? ''
      const result = await world.request(route.method, buildPath(route.path, fx.ids) + query, {
        as: caller === 'anonymous' ? ANONYMOUS : people[caller].as,
        json: route.body ? await row.body?.(fx) : undefined,
      })

      expect(result.status, `${key} as ${caller}: ${result.text}`).toBe(expected)
      if (expected >= 400) errorOf(result)
      else if (route.response) expectBody(result, expected, route.response)
      else if (row.plainText) expect(result.headers.get('content-type')).toMatch(/^text\/plain/)
      else expect(result.text).toBe('')
      await row.check?.(fx, expected < 400)
      if (!before) return
      const after = await snapshot(project.id, segment)
      if (expected >= 400) {
        expect(after, 'a refused call changes nothing').toEqual(before)
      } else {
        expect(row.effect, `${key} changes state: its row needs an effect check`).toBeDefined()
        row.effect?.(fx, caller, before, after)
      }
    })
  })

  it.each(NON_PUBLIC_ROUTES.map((route) => [keyOf(route), route] as const))(
    '%s answers 401 to an anonymous caller',
    async (_key, route) => {
      // Real ids where they matter; any other id parameter names something that exists or not.
      const path = route.path.replace(/:([a-z_]+)/g, (_, name: string) => {
        if (name === 'project_id') return String(shared.id)
        if (name === 'user_id') return String(people.owner.id)
        if (name === 'token_id') return 'abcdefgh'
        return '1'
      })
      const result = await world.request(route.method, path, {
        json: route.body ? {} : undefined,
      })
      expectError(result, 401)
    },
  )

  it('left the shared project, its team and the users untouched', async () => {
    const state = await snapshot(shared.id, undefined)
    expect(state.project).toEqual(shared)
    expect(state.team.map((m) => m.role).sort()).toEqual([
      'guest',
      'manager',
      'owner',
      'task_runner',
    ])
    for (const person of Object.values(people)) {
      const me = await world.request('GET', '/api/user', { as: person.as })
      expect(me.status).toBe(200)
    }
  })
})
