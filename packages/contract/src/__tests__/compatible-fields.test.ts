import { describe, expect, it } from 'vitest'
import { ignoredFields } from '../common/ignored-fields.js'
import type { RouteDef } from '../http.js'
import { updateProject } from '../projects/projects.routes.js'
import { environmentRoutes, keyRoutes, viewRoutes } from '../resources/resources.routes.js'
import { globalRunnerRoutes } from '../runners/runners.routes.js'
import { scheduleRoutes } from '../schedules/schedules.routes.js'
import { taskRoutes } from '../tasks/tasks.routes.js'
import { updateTeamMember } from '../team/team.routes.js'
import { appRoutes, templateRoutes } from '../templates/templates.routes.js'
import { createUser, updateUser } from '../users/users.routes.js'

/*
 * Fields the compatible API's clients send that Flagman does not use, named route by route.
 * Bodies are what its console sends (forms add `project_id`; edit forms send back the object
 * they read, read-only fields included). Each must be accepted, and lose exactly these.
 */

const CREATED = '2025-01-02T03:04:05Z'

const USER = {
  name: 'Dana',
  username: 'dana',
  email: 'dana@example.test',
  alert: false,
  admin: false,
  pro: false,
}

const VAULT = {
  id: 0,
  project_id: 3,
  template_id: 0,
  name: null,
  type: 'password',
  vault_key_id: 5,
  script: null,
}

const TEMPLATE = {
  project_id: 3,
  name: 'Deploy',
  description: null,
  type: '',
  app: 'ansible',
  playbook: 'site.yml',
  arguments: null,
  allow_override_args_in_task: false,
  inventory_id: 2,
  repository_id: 4,
  environment_id: 6,
  view_id: null,
  build_template_id: null,
  start_version: null,
  autorun: false,
  git_branch: null,
  survey_vars: [{ name: 'region', title: 'Region', type: '', required: false, values: [] }],
  suppress_success_alerts: false,
  task_params: {},
}

const LAST_TASK = { id: 9, template_id: 7, status: 'success', tpl_alias: 'Deploy' }

const RUNNER = {
  id: 4,
  project_id: null,
  name: 'builder',
  webhook: '',
  max_parallel_tasks: 2,
  active: true,
  tag: '',
}

const SECRET_ROW = { id: 12, type: 'var', name: 'TOKEN', secret: '', operation: '' }

/** An environment as the console reads it and sends it back, secrets included. */
const ENVIRONMENT = {
  id: 6,
  name: 'Production',
  project_id: 3,
  password: null,
  json: '{}',
  env: '{}',
  secrets: [SECRET_ROW],
}

const CASES: Array<[string, RouteDef, unknown, string[]]> = [
  [
    'user create from the console, which adds project_id',
    createUser,
    { ...USER, password: 'secret-1', external: false, project_id: 3 },
    ['project_id'],
  ],
  [
    'user update with the user as read, plus project_id',
    updateUser,
    { id: 7, created: CREATED, ...USER, external: false, password: '', project_id: 3 },
    ['id', 'created', 'external', 'project_id'],
  ],
  [
    'project update with the project as read',
    updateProject,
    {
      id: 3,
      name: 'Web',
      created: CREATED,
      alert: false,
      alert_chat: null,
      max_parallel_tasks: 0,
      type: '',
    },
    ['created', 'type'],
  ],
  [
    'team role change with the member row as read',
    updateTeamMember,
    { id: 7, username: 'dana', name: 'Dana', role: 'manager' },
    ['id', 'username', 'name'],
  ],
  [
    'template create with counters and vaults as the form holds them',
    templateRoutes.create,
    { id: 0, ...TEMPLATE, vaults: [VAULT], tasks: 0, last_task: null },
    ['id', 'vaults.0.project_id', 'vaults.0.template_id', 'tasks', 'last_task'],
  ],
  [
    'template update with the template as read',
    templateRoutes.update,
    {
      id: 7,
      ...TEMPLATE,
      vaults: [{ ...VAULT, id: 1, template_id: 7 }],
      tasks: 12,
      last_task: LAST_TASK,
    },
    ['vaults.0.project_id', 'vaults.0.template_id', 'tasks', 'last_task'],
  ],
  [
    'schedule update with the row of the project list',
    scheduleRoutes.update,
    {
      id: 8,
      project_id: 3,
      template_id: 7,
      cron_format: '0 3 * * *',
      name: 'nightly',
      active: true,
      repository_id: null,
      tpl_name: 'Deploy',
    },
    ['tpl_name'],
  ],
  [
    'view create from the form, with the id of a new view',
    viewRoutes.create,
    { id: 0, title: 'Ops', position: 1, project_id: 3 },
    ['id'],
  ],
  [
    'key update with the key of the list, blank secrets included',
    keyRoutes.update,
    {
      id: 5,
      name: 'deploy',
      type: 'login_password',
      project_id: 3,
      login_password: { login: '', password: '' },
      ssh: { login: '', passphrase: '', private_key: '' },
      override_secret: false,
      empty: true,
    },
    ['empty'],
  ],
  [
    'runner update with the runner as read by newer servers',
    globalRunnerRoutes.update,
    { ...RUNNER, touched: CREATED, online: true },
    ['touched', 'online'],
  ],
  [
    'app save with the row of the apps list',
    appRoutes.save,
    {
      id: 'ansible',
      active: true,
      priority: 500,
      title: 'Ansible',
      icon: 'mdi-ansible',
      color: 'black',
      dark_color: 'white',
      path: 'ansible-playbook',
      args: [],
    },
    ['id'],
  ],
  [
    'task run from the console, which adds project_id and the build version',
    taskRoutes.create,
    {
      template_id: 7,
      project_id: 3,
      debug: false,
      dry_run: false,
      diff: false,
      message: '',
      environment: '{}',
      version: null,
    },
    ['project_id', 'version'],
  ],
  ['stop without force', taskRoutes.stop, {}, []],
]

function bodyOf(route: RouteDef) {
  if (!route.body) throw new Error(`${route.method} ${route.path} declares no body`)
  return route.body
}

describe('fields compatible clients send that Flagman ignores', () => {
  it.each(CASES)('%s', (_label, route, body, ignored) => {
    const schema = bodyOf(route)
    const parsed = schema.safeParse(body)
    expect(parsed.error).toBeUndefined()
    expect(ignoredFields(schema, body)).toEqual(ignored)
    // What is ignored is gone from what the server works with.
    for (const field of ignored.filter((path) => !path.includes('.'))) {
      expect(parsed.data).not.toHaveProperty(field)
    }
  })

  it('accepts an environment with its secrets as read, leaving those secrets alone', () => {
    const parsed = bodyOf(environmentRoutes.update).parse(ENVIRONMENT) as { secrets: unknown }
    // A row without an operation changes nothing: all it keeps is the empty operation.
    expect(parsed.secrets).toEqual([{ operation: '' }])
    expect(ignoredFields(bodyOf(environmentRoutes.update), ENVIRONMENT)).not.toContain('secrets')
  })

  // A secret row is preprocessed (a transform first) and picked by its operation.
  it('names the read-only fields of secret rows', () => {
    expect(ignoredFields(bodyOf(environmentRoutes.update), ENVIRONMENT)).toEqual([
      'secrets.0.id',
      'secrets.0.type',
      'secrets.0.name',
      'secrets.0.secret',
    ])
  })

  it('reads a stop without force as a graceful stop', () => {
    const parsed = bodyOf(taskRoutes.stop).parse({}) as { force?: boolean | null }
    expect(parsed.force ?? false).toBe(false)
  })
})
