import { buildPath, TerraformAlias, type Project } from '@flagman/contract'
import { expect } from 'vitest'
import { z } from 'zod'
import { unique, type Person, type World } from './fixtures.js'
import { expectBody, type HttpResult } from './http.js'

/*
 * What calls of the project routes work on, and valid bodies for them: shared by the tests
 * that call every route of the contract (who may call it, and what undeclared fields change).
 */

/** The project a call works on and what was made in it. */
export interface CaseFixture {
  world: World
  project: Project
  /** An owner of the project: makes what the calls work on. */
  owner: Person
  /** A user the team routes add, or change when already a member. */
  candidate: Omit<Person, 'as'>
  /** Path parameters of the call: `project_id`, plus whatever the setup made. */
  ids: Record<string, number>
  /** Path of the HTTP-backend alias the setup made, if any. */
  backendPath?: string
}

/** Makes what a call works on and returns its path parameters (e.g. `{ key_id }`). */
export type Setup = (fx: CaseFixture) => Promise<Record<string, number>>

/** A project resource as its list shows it. */
export const Item = z.object({ id: z.number() }).catchall(z.unknown())
export type Item = z.infer<typeof Item>

/** The id of the key "None" every project starts with. */
export async function noneKey(fx: CaseFixture): Promise<number> {
  const result = await fx.world.request('GET', `/api/project/${fx.project.id}/keys`, {
    as: fx.owner.as,
  })
  const key = expectBody(result, 200, z.array(Item)).find((k) => k.name === 'None')
  if (!key) throw new Error('the project has no key "None"')
  return key.id
}

export interface ResourceKind {
  segment: string
  idParam: string
  /** The field that names an item. */
  label: 'name' | 'title'
  /** Makes what an item of this kind refers to, as ids (e.g. a repository for a template). */
  needs?: Setup
  /** A valid create body naming the item `label`; `fx.ids` holds what `needs` made. */
  body: (fx: CaseFixture, label: string) => Promise<Record<string, unknown>>
  refs: boolean
}

/** Makes what an item of the kind refers to, keeping the ids in `fx.ids`. */
export function needsOf(kind: ResourceKind): Setup {
  return async (fx) => Object.assign(fx.ids, await kind.needs?.(fx))
}

/** Makes one item of the kind in the fixture's project, as its owner; returns its id param. */
export function maker(kind: ResourceKind): Setup {
  return async (fx) => {
    await needsOf(kind)(fx)
    const result = await fx.world.request('POST', `/api/project/${fx.project.id}/${kind.segment}`, {
      as: fx.owner.as,
      json: await kind.body(fx, unique('item')),
    })
    return { [kind.idParam]: expectBody(result, 201, Item).id }
  }
}

/** The update body of an item of the kind: its create body, renamed, with its id. */
export async function updateBody(
  kind: ResourceKind,
  fx: CaseFixture,
  label = 'renamed',
): Promise<Record<string, unknown>> {
  return { ...(await kind.body(fx, label)), id: fx.ids[kind.idParam] }
}

/** A repository of the project (templates need one), made by its owner. */
export async function repository(fx: CaseFixture): Promise<Record<string, number>> {
  const result = await fx.world.request('POST', `/api/project/${fx.project.id}/repositories`, {
    as: fx.owner.as,
    json: {
      name: unique('repo'),
      project_id: fx.project.id,
      git_url: 'https://example.test/repo.git',
      git_branch: 'main',
      ssh_key_id: await noneKey(fx),
    },
  })
  return { repository_id: expectBody(result, 201, Item).id }
}

/** A view of the project, made by its owner. */
export async function view(fx: CaseFixture, position = 0): Promise<Record<string, number>> {
  const result = await fx.world.request('POST', `/api/project/${fx.project.id}/views`, {
    as: fx.owner.as,
    json: { title: unique('view'), position, project_id: fx.project.id },
  })
  return { view_id: expectBody(result, 201, Item).id }
}

export const KEYS: ResourceKind = {
  segment: 'keys',
  idParam: 'key_id',
  label: 'name',
  refs: true,
  body: async (fx, name) => ({ name, type: 'none', project_id: fx.project.id }),
}

export const REPOSITORIES: ResourceKind = {
  segment: 'repositories',
  idParam: 'repository_id',
  label: 'name',
  refs: true,
  body: async (fx, name) => ({
    name,
    project_id: fx.project.id,
    git_url: 'https://example.test/repo.git',
    git_branch: 'main',
    ssh_key_id: await noneKey(fx),
  }),
}

export const INVENTORIES: ResourceKind = {
  segment: 'inventory',
  idParam: 'inventory_id',
  label: 'name',
  refs: true,
  body: async (fx, name) => ({
    name,
    project_id: fx.project.id,
    type: 'static',
    inventory: '[web]\nweb1.example.test',
    ssh_key_id: await noneKey(fx),
  }),
}

export const ENVIRONMENTS: ResourceKind = {
  segment: 'environment',
  idParam: 'environment_id',
  label: 'name',
  refs: true,
  body: async (fx, name) => ({ name, project_id: fx.project.id, json: '{}', env: '{}' }),
}

export const VIEWS: ResourceKind = {
  segment: 'views',
  idParam: 'view_id',
  label: 'title',
  refs: false,
  body: async (fx, title) => ({ title, position: 0, project_id: fx.project.id }),
}

export const TEMPLATES: ResourceKind = {
  segment: 'templates',
  idParam: 'template_id',
  label: 'name',
  refs: true,
  needs: repository,
  // A script template: it needs no inventory, and the suites activate the bash app.
  body: async (fx, name) => ({
    name,
    project_id: fx.project.id,
    app: 'bash',
    playbook: 'run.sh',
    repository_id: fx.ids.repository_id,
  }),
}

/** A schedule that never comes due while the suite runs (midnight of January 1st, UTC). */
export const SCHEDULES: ResourceKind = {
  segment: 'schedules',
  idParam: 'schedule_id',
  label: 'name',
  refs: false,
  needs: maker(TEMPLATES),
  body: async (fx, name) => ({
    name,
    project_id: fx.project.id,
    template_id: fx.ids.template_id,
    cron_format: '0 0 1 1 *',
  }),
}

/** An integration running a fresh template, made by the owner. */
export const INTEGRATIONS: ResourceKind = {
  segment: 'integrations',
  idParam: 'integration_id',
  label: 'name',
  refs: true,
  needs: maker(TEMPLATES),
  body: async (fx, name) => ({
    name,
    project_id: fx.project.id,
    template_id: fx.ids.template_id,
  }),
}

/** A project's own remote runner, made by the owner. */
export const PROJECT_RUNNERS: ResourceKind = {
  segment: 'runners',
  idParam: 'runner_id',
  label: 'name',
  refs: false,
  body: async (fx, name) => ({ name, project_id: fx.project.id }),
}

export const MATCHER = () => ({
  name: 'event',
  match_type: 'header',
  key: 'X-Event',
  value: 'push',
})
export const VALUE = () => ({ name: 'ref', value_source: 'header', key: 'X-Ref', variable: 'REF' })

/** Makes a part of the fixture's integration (an alias, matcher or value) as its owner. */
export function integrationPart(
  path: string,
  idParam: string,
  status: 200 | 201,
  body?: () => Record<string, unknown>,
): Setup {
  return async (fx) => {
    if (path.includes(':integration_id') && fx.ids.integration_id === undefined) {
      await maker(INTEGRATIONS)(fx).then((ids) => Object.assign(fx.ids, ids))
    }
    const result = await fx.world.request(
      'POST',
      buildPath(`/api/project/:project_id/${path}`, fx.ids),
      { as: fx.owner.as, json: body?.() },
    )
    return { ...fx.ids, [idParam]: expectBody(result, status, Item).id }
  }
}

/** A Terraform template and a workspace, owned by it when `attached`, free otherwise. */
export function terraformWorkspace(attached: boolean): Setup {
  return async (fx) => {
    const { repository_id } = await repository(fx)
    const as = fx.owner.as
    const template = await fx.world.request('POST', `/api/project/${fx.project.id}/templates`, {
      as,
      json: { name: unique('tf'), project_id: fx.project.id, app: 'terraform', repository_id },
    })
    const template_id = expectBody(template, 201, Item).id
    const inventory = await fx.world.request('POST', `/api/project/${fx.project.id}/inventory`, {
      as,
      json: {
        name: unique('ws'),
        project_id: fx.project.id,
        type: 'terraform-workspace',
        inventory: 'w',
        template_id: attached ? template_id : null,
      },
    })
    return { template_id, inventory_id: expectBody(inventory, 201, Item).id }
  }
}

/** A login/password key of the project, made by its owner, guarding aliases. */
export async function backendKey(fx: CaseFixture, login: string): Promise<number> {
  const result = await fx.world.request('POST', `/api/project/${fx.project.id}/keys`, {
    as: fx.owner.as,
    json: {
      name: unique('backend'),
      type: 'login_password',
      project_id: fx.project.id,
      login_password: { login, password: `${login}-password` },
    },
  })
  return expectBody(result, 201, Item).id
}

export const TERRAFORM_BASE = '/api/project/:project_id/inventory/:inventory_id/terraform'

/** The login of the alias key of the fixture's workspace. */
const backendLogin = (fx: CaseFixture) => `matrix-${String(fx.ids.inventory_id)}`

/** Calls Terraform's http backend of the fixture's alias, as Terraform does. */
export function backend(fx: CaseFixture, method: string, body: unknown): Promise<HttpResult> {
  const login = backendLogin(fx)
  const credentials = Buffer.from(`${login}:${login}-password`).toString('base64')
  return fx.world.request(method, fx.backendPath ?? '', {
    raw: JSON.stringify(body),
    headers: { Authorization: `Basic ${credentials}`, 'Content-Type': 'application/json' },
  })
}

/**
 * A workspace with an alias and two state versions written through it (`state_id` is the
 * older one), plus a spare key (`key_id`) for changing the alias; `locked` takes the lock.
 */
export function terraformStates(locked = false): Setup {
  return async (fx) => {
    Object.assign(fx.ids, await terraformWorkspace(true)(fx))
    const auth_key_id = await backendKey(fx, backendLogin(fx))
    const key_id = await backendKey(fx, `${backendLogin(fx)}-spare`)
    const alias = await fx.world.request('POST', buildPath(`${TERRAFORM_BASE}/aliases`, fx.ids), {
      as: fx.owner.as,
      json: { auth_key_id },
    })
    const created = expectBody(alias, 201, TerraformAlias)
    fx.backendPath = new URL(created.url).pathname
    const states: number[] = []
    for (const serial of [1, 2]) {
      const state = { version: 4, serial, lineage: 'matrix', outputs: {}, resources: [] }
      const stored = await backend(fx, 'POST', state)
      expect(stored.status, stored.text).toBe(200)
      const latest = await fx.world.request(
        'GET',
        buildPath(`${TERRAFORM_BASE}/states/latest`, fx.ids),
        { as: fx.owner.as },
      )
      states.push(expectBody(latest, 200, Item).id)
    }
    if (locked) {
      const lock = await backend(fx, 'LOCK', {
        ID: unique('lock'),
        Operation: 'OperationTypeApply',
      })
      expect(lock.status, lock.text).toBe(200)
    }
    return {
      ...fx.ids,
      alias_id: created.id,
      auth_key_id,
      key_id,
      state_id: states[0] ?? 0,
      newer_state_id: states[1] ?? 0,
    }
  }
}

/** A task of a fresh template, run by the owner and waited for until it has finished. */
export async function finishedTask(fx: CaseFixture): Promise<Record<string, number>> {
  const { template_id } = await maker(TEMPLATES)(fx)
  const base = `/api/project/${fx.project.id}/tasks`
  const created = await fx.world.request('POST', base, {
    as: fx.owner.as,
    json: { template_id },
  })
  const task_id = expectBody(created, 201, Item).id
  await taskFinished(fx, task_id)
  return { template_id: template_id ?? 0, task_id }
}

/** Waits until the task of the fixture's project has finished, and returns it. */
export async function taskFinished(fx: CaseFixture, taskId: number): Promise<Item> {
  const path = `/api/project/${fx.project.id}/tasks/${taskId}`
  const deadline = Date.now() + 20_000
  for (;;) {
    const task = expectBody(await fx.world.request('GET', path, { as: fx.owner.as }), 200, Item)
    if (['success', 'error', 'stopped'].includes(String(task.status))) return task
    if (Date.now() > deadline) throw new Error(`task ${taskId} did not finish`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Bodies of the project routes that are not a resource's create or update. */
export const BODIES = {
  projectUpdate: (fx: CaseFixture) => ({ name: `${fx.project.name} renamed` }),
  teamAdd: (fx: CaseFixture) => ({ user_id: fx.candidate.id, role: 'guest' }),
  teamRole: () => ({ role: 'task_runner' }),
  /** Points an HTTP-backend alias at the spare key of `terraformStates`. */
  alias: (fx: CaseFixture) => ({ auth_key_id: fx.ids.key_id }),
  viewPositions: (fx: CaseFixture) => ({ [String(fx.ids.view_id)]: 7 }),
  scheduleActive: () => ({ active: false }),
  cronCheck: () => ({ cron_format: '*/5 * * * *' }),
  cronPreview: () => ({ cron_format: '*/5 * * * *', timezone: 'Europe/Berlin' }),
  matcher: () => ({ ...MATCHER(), name: 'created' }),
  value: () => ({ ...VALUE(), name: 'created' }),
  runnerPost: (fx: CaseFixture) => ({ name: 'posted', project_id: fx.project.id }),
  runnerActive: () => ({ active: false }),
  task: (fx: CaseFixture) => ({ template_id: fx.ids.template_id }),
  stop: () => ({ force: false }),
}
