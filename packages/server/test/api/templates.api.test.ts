import {
  Event,
  Inventory,
  MAX_TEXT_BYTES,
  Schedule,
  Template,
  type AccessKey,
  type Environment,
  type Repository,
  type View,
} from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  expectRefused,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { DEFAULT_APPS, ProjectTemplates, setAppsActive } from '../support/templates.js'

/** The id a nullable reference must have at that point of a test. */
function present(id: number | null): number {
  expect(id).toEqual(expect.any(Number))
  return id as number
}

describe.each(dialects())('templates on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let t: ProjectTemplates
  let noneKey: AccessKey
  let vaultKey: AccessKey
  let repo: Repository
  let hostInventory: Inventory
  let env: Environment
  let view: View
  let cast: Cast

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    await setAppsActive(world, DEFAULT_APPS, true)
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    noneKey = await p.key(unique('none'))
    vaultKey = await p.loginPasswordKey(unique('vault'), 'vault-password')
    repo = await p.repository(unique('repo'), noneKey.id)
    hostInventory = await p.inventory(unique('hosts'), noneKey.id)
    env = await p.environment(unique('env'))
    view = await p.view(unique('view'))
    t = new ProjectTemplates(p, { repository_id: repo.id, inventory_id: hostInventory.id })
    cast = await castFor(world, project.id)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  /** Everything a template write may touch in a project, to show a refusal changed nothing. */
  async function snapshot(projectId = p.projectId): Promise<string[]> {
    return Promise.all(
      ['template', 'template_vault', 'inventory', 'event'].map((table) =>
        projectRows(db, table, projectId),
      ),
    )
  }

  /** Templates and helpers of another project of the admin. */
  async function otherProject(): Promise<{ q: ProjectResources; u: ProjectTemplates }> {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const key = await q.key(unique('k'))
    const u = new ProjectTemplates(q, {
      repository_id: (await q.repository(unique('r'), key.id)).id,
      inventory_id: (await q.inventory(unique('i'), key.id)).id,
    })
    return { q, u }
  }

  it('creates an Ansible template with every field and reads it back', async () => {
    const name = unique('full')
    const created = await t.create({
      name: `  ${name} `,
      description: 'Deploys the site',
      playbook: ' playbooks/site.yml ',
      arguments: '["--diff", "-v"]',
      allow_override_args_in_task: true,
      environment_id: env.id,
      view_id: view.id,
      git_branch: ' release ',
      suppress_success_alerts: true,
      task_params: { limit: 'web', tags: ['a'] },
    })
    expect(created).toEqual({
      id: expect.any(Number),
      project_id: p.projectId,
      name,
      description: 'Deploys the site',
      type: '',
      app: 'ansible',
      playbook: 'playbooks/site.yml',
      arguments: '["--diff", "-v"]',
      allow_override_args_in_task: true,
      inventory_id: hostInventory.id,
      repository_id: repo.id,
      environment_id: env.id,
      view_id: view.id,
      build_template_id: null,
      start_version: null,
      autorun: false,
      git_branch: 'release',
      survey_vars: null,
      vaults: [],
      suppress_success_alerts: true,
      task_params: { limit: 'web', tags: ['a'] },
      runner_tag: null,
      tasks: 0,
      last_task: null,
    })
    expect(await t.get(created.id)).toEqual(created)
    expect(await t.list()).toContainEqual(created)

    // Without optional fields: defaults, and "ansible" when no app is named.
    const minimal = await t.create({ app: undefined })
    expect(minimal).toMatchObject({
      app: 'ansible',
      type: '',
      description: null,
      arguments: null,
      allow_override_args_in_task: false,
      environment_id: null,
      view_id: null,
      git_branch: null,
      suppress_success_alerts: false,
      task_params: null,
    })
  })

  it('creates templates for every app, keeping every field sent', async () => {
    for (const app of ['bash', 'python', 'powershell']) {
      const script = await t.create({
        app,
        playbook: `scripts/${app}-job`,
        inventory_id: hostInventory.id,
      })
      expect(script).toMatchObject({
        app,
        playbook: `scripts/${app}-job`,
        inventory_id: hostInventory.id,
        repository_id: repo.id,
      })
    }
    const pulumi = await t.create({ app: 'pulumi', playbook: '', inventory_id: hostInventory.id })
    expect(pulumi).toMatchObject({ app: 'pulumi', playbook: '', inventory_id: hostInventory.id })
    const noInventory = await t.create({ app: 'bash', inventory_id: null })
    expect(noInventory.inventory_id).toBeNull()
    const pulumiProgram = await t.create({ app: 'pulumi', playbook: 'stacks/web' })
    expect(pulumiProgram.playbook).toBe('stacks/web')
    for (const app of ['terraform', 'tofu']) {
      const tpl = await t.create({ app, playbook: undefined })
      expect(tpl).toMatchObject({ app, playbook: '', repository_id: repo.id })
      const [workspace] = await p.list(`/inventory?template_id=${tpl.id}`, Inventory)
      expect(workspace?.id).toBe(present(tpl.inventory_id))
    }
    const apps = new Set((await t.list()).map((tpl) => tpl.app))
    expect([...apps].sort()).toEqual([...DEFAULT_APPS].sort())
  })

  it('refuses a template without a field its app requires, storing nothing', async () => {
    const before = await snapshot()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'template name can not be empty'],
      [{ name: '   ' }, 'template name can not be empty'],
      [{ name: undefined }, 'template name is required'],
      [{ name: 'x'.repeat(256) }, 'template name must be at most 255 characters'],
      [{ playbook: '' }, 'template playbook can not be empty'],
      [{ playbook: '  ' }, 'template playbook can not be empty'],
      [{ playbook: undefined }, 'template playbook can not be empty'],
      [{ inventory_id: null }, 'template inventory can not be empty'],
      [{ inventory_id: undefined }, 'template inventory can not be empty'],
    ]
    for (const app of ['bash', 'python', 'powershell']) {
      cases.push([{ app, playbook: '' }, 'template playbook can not be empty'])
    }
    for (const app of DEFAULT_APPS) {
      cases.push([{ app, repository_id: null }, 'template repository can not be empty'])
      cases.push([{ app, repository_id: undefined }, 'template repository can not be empty'])
    }
    for (const [fields, message] of cases) {
      expectError(await t.post(fields), 400, message)
    }
    const tpl = await t.create()
    const saved = await snapshot()
    for (const [fields, message] of cases) {
      expectError(await t.put(tpl, { ...t.body(fields), id: tpl.id }), 400, message)
    }
    expect(await snapshot()).toEqual(saved)
    expect(saved[0]).not.toBe(before[0])
  })

  it('gives Terraform and OpenTofu templates a default workspace or attaches the chosen one', async () => {
    const tf = await t.create({ app: 'terraform', playbook: '/infra/prod' })
    // The subdirectory is relative to the repository, whatever the leading slash.
    expect(tf.playbook).toBe('infra/prod')
    const workspaceId = present(tf.inventory_id)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toEqual([
      {
        id: workspaceId,
        name: 'default',
        project_id: p.projectId,
        type: 'terraform-workspace',
        inventory: 'default',
        ssh_key_id: null,
        become_key_id: null,
        repository_id: null,
        template_id: tf.id,
      },
    ])
    // Owned workspaces are not offered to other templates.
    expect((await p.list('/inventory', Inventory)).map((i) => i.id)).not.toContain(workspaceId)

    // Saving without an inventory keeps the workspace it owns instead of adding another.
    const saved = await t.update(tf, { inventory_id: null, name: unique('tf') })
    expect(saved.inventory_id).toBe(workspaceId)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toHaveLength(1)
    // With several workspaces it keeps the one it uses.
    const second = await p.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: 'prod',
      template_id: tf.id,
    })
    const onSecond = await t.update(saved, { inventory_id: second.id })
    expect(onSecond.inventory_id).toBe(second.id)
    expect((await t.update(onSecond, { inventory_id: null })).inventory_id).toBe(second.id)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toHaveLength(2)

    const free = await p.inventory(unique('ws'), null, {
      type: 'tofu-workspace',
      inventory: 'staging',
    })
    const tofu = await t.create({ app: 'tofu', inventory_id: free.id })
    expect(tofu.inventory_id).toBe(free.id)
    expect(await p.list(`/inventory?template_id=${tofu.id}`, Inventory)).toEqual([
      { ...free, template_id: tofu.id },
    ])

    const before = await snapshot()
    expectError(
      await t.post({ app: 'tofu', inventory_id: free.id }),
      400,
      'Inventory is already attached to another template',
    )
    expectError(
      await t.put(saved, { inventory_id: free.id, app: 'tofu' }),
      400,
      'Inventory is already attached to another template',
    )
    expect(await snapshot()).toEqual(before)

    // A template that stops being a Terraform template lets its workspaces go.
    const ansible = await t.update(saved, {
      app: 'ansible',
      playbook: 'site.yml',
      inventory_id: hostInventory.id,
    })
    expect(ansible.inventory_id).toBe(hostInventory.id)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toEqual([])
    expect((await p.get(`/inventory/${workspaceId}`, Inventory)).template_id).toBeNull()
    // And one that becomes a Terraform template without an inventory gets a new default.
    const again = await t.update(ansible, { app: 'terraform', inventory_id: null })
    expect(again.inventory_id).not.toBe(workspaceId)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toEqual([
      expect.objectContaining({ id: again.inventory_id, name: 'default', template_id: tf.id }),
    ])
  })

  it('refuses an inventory whose type does not fit the app', async () => {
    const tfWorkspace = await p.inventory(unique('tfws'), null, {
      type: 'terraform-workspace',
      inventory: 'w',
    })
    const tofuWorkspace = await p.inventory(unique('tofuws'), null, {
      type: 'tofu-workspace',
      inventory: 'w',
    })
    const before = await snapshot()
    for (const [app, inventory] of [
      ['terraform', hostInventory],
      ['terraform', tofuWorkspace],
      ['tofu', hostInventory],
      ['tofu', tfWorkspace],
      ['ansible', tfWorkspace],
      ['ansible', tofuWorkspace],
    ] as const) {
      expectError(
        await t.post({ app, inventory_id: inventory.id }),
        400,
        'Inventory type is not supported for this template',
      )
    }
    expect(await snapshot()).toEqual(before)
    for (const type of ['static-yaml', 'file']) {
      const inventory = await p.inventory(unique(type), noneKey.id, {
        type,
        inventory: type === 'file' ? 'hosts.ini' : 'all: {}',
      })
      expect((await t.create({ inventory_id: inventory.id })).inventory_id).toBe(inventory.id)
    }
  })

  it('refuses playbook paths outside the repository', async () => {
    const tpl = await t.create({ app: 'bash', playbook: 'ok.sh' })
    const before = await snapshot()
    const message = 'template playbook must be a path inside the repository, such as site.yml'
    for (const playbook of ['../x', '/etc/x', 'a/../../x', 'a\\..\\..\\x', '~/x', 'C:\\x']) {
      for (const app of ['ansible', 'bash', 'pulumi']) {
        expectError(await t.post({ app, playbook }), 400, message)
      }
      expectError(await t.put(tpl, { playbook }), 400, message)
    }
    expectError(await t.post({ app: 'terraform', playbook: '../modules' }), 400, message)
    expect(await snapshot()).toEqual(before)
    expect((await t.create({ playbook: 'a/b..c/site.yml' })).playbook).toBe('a/b..c/site.yml')
  })

  it('keeps a runner tag, and refuses one that is not a single tag', async () => {
    const tpl = await t.create({ runner_tag: ' gpu ' })
    expect(tpl.runner_tag).toBe('gpu')
    expect((await t.get(tpl.id)).runner_tag).toBe('gpu')
    expect((await t.update(tpl, { runner_tag: '' })).runner_tag).toBeNull()
    expect((await t.create({ runner_tag: null })).runner_tag).toBeNull()
    const before = await snapshot()
    for (const tag of ['gpu,arm', 'two words', 'a/b']) {
      expectError(
        await t.post({ runner_tag: tag }),
        400,
        'runner_tag may hold only letters, digits, _, . and -',
      )
    }
    expectError(await t.post({ runner_tag: 5 }), 400, 'runner_tag must be a string')
    expect(await snapshot()).toEqual(before)
  })

  it('accepts arguments only as a JSON array of strings', async () => {
    const tpl = await t.create({ arguments: '["-e", "x=1"]' })
    expect(tpl.arguments).toBe('["-e", "x=1"]')
    expect((await t.create({ arguments: '' })).arguments).toBeNull()
    expect((await t.create({ arguments: '  ' })).arguments).toBeNull()
    expect((await t.create({ arguments: null })).arguments).toBeNull()
    expect((await t.create({ arguments: '[]' })).arguments).toBe('[]')
    expect((await t.update(tpl, { arguments: '' })).arguments).toBeNull()

    const before = await snapshot()
    const cases: Array<[string, string]> = [
      ['not json', 'template arguments must be valid JSON'],
      ['["-v",', 'template arguments must be valid JSON'],
      ['{"a": "b"}', 'template arguments must be a JSON array of strings'],
      ['[1, 2]', 'template arguments must be a JSON array of strings'],
      ['["-v", null]', 'template arguments must be a JSON array of strings'],
      ['[["-v"]]', 'template arguments must be a JSON array of strings'],
      ['"-v"', 'template arguments must be a JSON array of strings'],
      ['null', 'template arguments must be a JSON array of strings'],
    ]
    for (const [text, message] of cases) {
      expectError(await t.post({ arguments: text }), 400, message)
      expectError(await t.put(tpl, { arguments: text }), 400, message)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('requires a start version for builds and a build template of the project for deploys', async () => {
    const before = await snapshot()
    const needsVersion = 'A build template needs a start version, for example 0.0.0'
    expectError(await t.post({ type: 'build' }), 400, needsVersion)
    expectError(await t.post({ type: 'build', start_version: '  ' }), 400, needsVersion)
    expectError(await t.post({ type: 'build', start_version: null }), 400, needsVersion)
    expectError(await t.post({ type: 'deploy' }), 400, 'A deploy template needs a build template')
    expect(await snapshot()).toEqual(before)

    const build = await t.create({ type: 'build', start_version: ' 1.0.0 ', autorun: true })
    expect(build).toMatchObject({
      type: 'build',
      start_version: '1.0.0',
      build_template_id: null,
      autorun: true,
    })
    // The start version and the build template of other types are dropped; autorun is kept
    // (only a deploy template, which alone has a build template, ever runs automatically).
    const task = await t.create({
      start_version: '2.0.0',
      build_template_id: build.id,
      autorun: true,
    })
    expect(task).toMatchObject({
      type: '',
      start_version: null,
      build_template_id: null,
      autorun: true,
    })
    const deploy = await t.create({
      type: 'deploy',
      build_template_id: build.id,
      autorun: true,
      start_version: '3.0.0',
    })
    expect(deploy).toMatchObject({
      type: 'deploy',
      build_template_id: build.id,
      autorun: true,
      start_version: null,
    })

    const mid = await snapshot()
    const notBuild = 'The build template of a deploy template must be a build template'
    for (const other of [task, deploy]) {
      expectError(await t.post({ type: 'deploy', build_template_id: other.id }), 400, notBuild)
    }
    expectError(
      await t.post({ type: 'deploy', build_template_id: 999_999_999 }),
      404,
      'Build template not found',
    )
    // A build template can not become a deploy template of itself.
    const lone = await t.create({ type: 'build', start_version: '0.1' })
    const afterLone = await snapshot()
    expectError(await t.put(lone, { type: 'deploy', build_template_id: lone.id }), 400, notBuild)
    // Nor stop being a build template while a deploy template uses it.
    for (const type of ['', 'deploy']) {
      expectError(
        await t.put(build, { type, build_template_id: lone.id }),
        400,
        `The template must stay a build template while the deploy template ${deploy.name} uses it`,
      )
    }
    expect(await snapshot()).toEqual(afterLone)
    expect(mid).not.toEqual(afterLone)
  })

  it('updates every field, drops fields of other types and insists on matching ids', async () => {
    const tpl = await t.create()
    const other = await t.create({ type: 'build', start_version: '1.0' })
    const changes = {
      name: unique('renamed'),
      description: 'Now documented',
      playbook: 'deploy.yml',
      arguments: '["--check"]',
      allow_override_args_in_task: true,
      environment_id: env.id,
      view_id: view.id,
      git_branch: 'release',
      suppress_success_alerts: true,
      task_params: { limit: 'db' },
    }
    const changed = await t.update(tpl, changes)
    expect(changed).toEqual({ ...tpl, ...changes })

    const asBuild = await t.update(changed, { type: 'build', start_version: '5.0.0' })
    expect([asBuild.type, asBuild.start_version]).toEqual(['build', '5.0.0'])
    const asDeploy = await t.update(asBuild, {
      type: 'deploy',
      build_template_id: other.id,
      autorun: true,
    })
    expect(asDeploy).toMatchObject({
      type: 'deploy',
      start_version: null,
      build_template_id: other.id,
      autorun: true,
    })
    const asTask = await t.update(asDeploy, { type: '' })
    expect(asTask).toMatchObject({
      type: '',
      start_version: null,
      build_template_id: null,
      autorun: true,
    })
    const cleared = await t.update(asTask, {
      description: null,
      environment_id: null,
      view_id: null,
      git_branch: '',
      task_params: null,
    })
    expect(cleared).toMatchObject({
      description: null,
      environment_id: null,
      view_id: null,
      git_branch: null,
      task_params: null,
    })

    const elsewhere = await world.newProject()
    const before = await snapshot()
    expectError(
      await t.put(cleared, { id: cleared.id + 1 }),
      400,
      'template id in URL and in body must be the same',
    )
    expectError(
      await t.put(cleared, { id: undefined }),
      400,
      /^id is required$|template id in URL and in body must be the same/,
    )
    expectError(
      await t.put(cleared, { project_id: elsewhere.id }),
      400,
      'You can not move template to other project',
    )
    expectError(
      await t.post({ project_id: elsewhere.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', '/templates/999999999', { ...cleared, id: 999_999_999 }),
      404,
      'Template not found',
    )
    expect(await snapshot()).toEqual(before)
    expect(await projectRows(db, 'template', elsewhere.id)).toBe('[]')
  })

  it('validates survey variables and stores them normalised', async () => {
    const tpl = await t.create({
      survey_vars: [
        { name: ' version ', title: ' Version ', description: 'Which one', required: true },
        { name: 'count', title: 'Count', type: 'int' },
        { name: 'token', title: 'Token', type: 'secret', required: false, description: null },
        {
          name: 'target',
          title: 'Target',
          type: 'enum',
          values: [
            { name: 'Production', value: 'prod' },
            { name: ' Staging ', value: 'stage' },
          ],
        },
      ],
    })
    expect(tpl.survey_vars).toEqual([
      {
        name: 'version',
        title: 'Version',
        description: 'Which one',
        type: '',
        required: true,
        values: [],
      },
      { name: 'count', title: 'Count', description: '', type: 'int', required: false, values: [] },
      {
        name: 'token',
        title: 'Token',
        description: '',
        type: 'secret',
        required: false,
        values: [],
      },
      {
        name: 'target',
        title: 'Target',
        description: '',
        type: 'enum',
        required: false,
        values: [
          { name: 'Production', value: 'prod' },
          { name: 'Staging', value: 'stage' },
        ],
      },
    ])
    expect((await t.get(tpl.id)).survey_vars).toEqual(tpl.survey_vars)
    expect((await t.update(tpl, { survey_vars: [] })).survey_vars).toEqual([])
    expect((await t.update(tpl, { survey_vars: null })).survey_vars).toBeNull()

    const before = await snapshot()
    const pick = { name: 'pick', title: 'Pick', type: 'enum' }
    const cases: Array<[unknown[], string]> = [
      [[{ title: 'T' }], 'survey variable name is required'],
      [[{ name: ' ', title: 'T' }], 'survey variable name can not be empty'],
      [[{ name: 'n' }], 'survey variable title is required'],
      [[{ name: 'n', title: '' }], 'survey variable title can not be empty'],
      [
        [{ name: 'n', title: 'T', type: 'date' }],
        "survey variable type must be '', int, enum or secret",
      ],
      [[pick], 'Pick: Enumeration must have values.'],
      [[{ ...pick, values: [] }], 'Pick: Enumeration must have values.'],
      [[{ ...pick, values: null }], 'Pick: Enumeration must have values.'],
      [
        [
          {
            ...pick,
            values: [
              { name: 'a', value: '1' },
              { name: 'a ', value: '2' },
            ],
          },
        ],
        'Pick: Enumeration values must have unique names.',
      ],
      [
        [
          {
            ...pick,
            values: [
              { name: 'a', value: '1' },
              { name: '  ', value: '2' },
            ],
          },
        ],
        'Pick: Value name cannot be empty.',
      ],
      [
        [
          { name: 'dup', title: 'One' },
          { name: ' dup', title: 'Two' },
        ],
        'Survey variable names must be unique: dup',
      ],
    ]
    for (const [vars, message] of cases) {
      expectError(await t.post({ survey_vars: vars }), 400, message)
      expectError(await t.put(tpl, { survey_vars: vars }), 400, message)
    }
    expect(await snapshot()).toEqual(before)
  })

  it('validates vaults, normalises their names and replaces them on update', async () => {
    const created = await t.create({
      vaults: [
        { type: 'password', vault_key_id: vaultKey.id, name: '' },
        { name: ' Prod ', type: 'script', script: 'scripts/vault-client.py' },
        { name: 'STAGE', type: 'script', script: 'vault-client', vault_key_id: vaultKey.id },
        { name: 'extra', type: 'password', vault_key_id: vaultKey.id, script: 'x-client' },
      ],
    })
    const common = { id: expect.any(Number), project_id: p.projectId, template_id: created.id }
    expect(created.vaults).toEqual([
      { ...common, name: null, type: 'password', vault_key_id: vaultKey.id, script: null },
      {
        ...common,
        name: 'prod',
        type: 'script',
        vault_key_id: null,
        script: 'scripts/vault-client.py',
      },
      { ...common, name: 'stage', type: 'script', vault_key_id: null, script: 'vault-client' },
      { ...common, name: 'extra', type: 'password', vault_key_id: vaultKey.id, script: null },
    ])

    // Sent back with their ids they are updated in place; new ones are added, others go.
    const [, prod] = created.vaults
    const updated = await t.update(created, {
      vaults: [
        { ...prod, script: 'bin/other-client.sh' },
        { name: 'new', type: 'script', script: 'new-client', id: 0 },
      ],
    })
    expect(updated.vaults).toEqual([
      {
        ...common,
        id: prod?.id,
        name: 'prod',
        type: 'script',
        vault_key_id: null,
        script: 'bin/other-client.sh',
      },
      { ...common, name: 'new', type: 'script', vault_key_id: null, script: 'new-client' },
    ])
    const stored = await db.kysely
      .selectFrom('template_vault')
      .select('id')
      .where('template_id', '=', created.id)
      .execute()
    expect(stored.map((v) => v.id).sort()).toEqual(updated.vaults.map((v) => v.id).sort())
    expect((await t.update(updated, { vaults: [] })).vaults).toEqual([])
    expect((await t.update(updated, { vaults: null })).vaults).toEqual([])

    const sshLike = await p.key(unique('plain'))
    const before = await snapshot()
    const script = (name: string | null, path: string) => ({ name, type: 'script', script: path })
    const cases: Array<[unknown[], number, string]> = [
      [[{ vault_key_id: vaultKey.id }], 400, 'vault type is required'],
      [[{ type: 'ftp' }], 400, 'vault type must be password or script'],
      [[{ type: 'password' }], 400, 'The password vault default needs a key'],
      [
        [{ name: 'k', type: 'password', vault_key_id: null }],
        400,
        'The password vault k needs a key',
      ],
      [
        [{ type: 'password', vault_key_id: sshLike.id }],
        400,
        'A vault password key must be a login with password key',
      ],
      [[{ type: 'password', vault_key_id: 999_999_999 }], 404, 'Vault key not found'],
      [[{ type: 'script' }], 400, 'The script vault default needs a script'],
      [[script(null, '  ')], 400, 'The script vault default needs a script'],
      [
        [script(null, 'vault.py')],
        400,
        'The script of vault default must end with -client (for example vault-client.py)',
      ],
      [
        [script('x', 'vault-client-old')],
        400,
        'The script of vault x must end with -client (for example vault-client.py)',
      ],
      [
        [script(null, '../../bin/vault-client')],
        400,
        'The script of vault default must be a path inside the repository',
      ],
      [
        [script(null, '/usr/bin/vault-client')],
        400,
        'The script of vault default must be a path inside the repository',
      ],
      [[script(null, 'a-client'), script('', 'b-client')], 400, 'Only one vault can be unnamed'],
      [
        [script('Prod', 'a-client'), script(' prod ', 'b-client')],
        400,
        'Vault names must be unique: prod',
      ],
      [
        [script('default', 'a-client'), script(null, 'b-client')],
        400,
        'Vault names must be unique: default',
      ],
    ]
    for (const [vaults, status, message] of cases) {
      expectError(await t.post({ vaults }), status, message)
      expectError(await t.put(created, { vaults }), status, message)
    }
    for (const app of ['terraform', 'bash', 'pulumi']) {
      expectError(
        await t.post({ app, vaults: [script(null, 'a-client')] }),
        400,
        'Vaults are used by Ansible templates only',
      )
    }
    expect(await snapshot()).toEqual(before)
    // Extensions of any kind are fine after "-client".
    for (const path of ['vault-client.sh', 'dir/my-vault-client', 'x-client.py']) {
      expect((await t.create({ vaults: [script(null, path)] })).vaults[0]?.script).toBe(path)
    }
  })

  it('refuses unknown apps and inactive apps for non-admins', async () => {
    const before = await snapshot()
    expectError(await t.post({ app: 'nope' }), 400, 'Invalid app id: nope')
    expectError(await t.post({ app: 'ANSIBLE' }), 400, 'Invalid app id: ANSIBLE')
    const tpl = await t.create({ app: 'bash', playbook: 'run.sh' })
    const withBash = await snapshot()
    expectError(await t.put(tpl, { app: 'nope' }), 400, 'Invalid app id: nope')
    expect(await snapshot()).toEqual(withBash)
    expect(before).not.toEqual(withBash)

    const manager = new ProjectTemplates(
      new ProjectResources(world.request.bind(world), cast.manager.as, p.projectId),
      t.defaults,
    )
    await setAppsActive(world, ['powershell'], false)
    try {
      const inactive = /^The app PowerShell is not active/
      expectError(await manager.post({ app: 'powershell' }), 400, inactive)
      expectError(await manager.put(tpl, { app: 'powershell' }), 400, inactive)
      expect(await snapshot()).toEqual(withBash)
      // Administrators may, and templates already of that app stay editable.
      const ps = await t.create({ app: 'powershell', playbook: 'run.ps1' })
      const renamed = await manager.update(ps, { name: unique('ps') })
      expect(renamed.app).toBe('powershell')
    } finally {
      await setAppsActive(world, ['powershell'], true)
    }
    expect((await manager.create({ app: 'powershell' })).app).toBe('powershell')

    // Apps added by administrators behave like script apps, whatever their name.
    for (const app of ['deployer', 'constructor']) {
      expectNoContent(
        await world.request('PUT', `/api/apps/${app}`, {
          as: admin.as,
          json: { title: app, active: true },
        }),
      )
      expectError(await t.post({ app, playbook: '' }), 400, 'template playbook can not be empty')
      const custom = await t.create({ app, playbook: 'deploy', inventory_id: hostInventory.id })
      expect(custom).toMatchObject({ app, playbook: 'deploy', inventory_id: hostInventory.id })
    }
  })

  it('filters by app and sorts by name, playbook, inventory, environment and repository', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const key = await q.key(unique('k'))
    const [repoA, repoB] = [
      await q.repository('repoa', key.id),
      await q.repository('repob', key.id),
    ]
    const [invA, invB] = [await q.inventory('inva', key.id), await q.inventory('invb', key.id)]
    const [envA, envB] = [await q.environment('enva'), await q.environment('envb')]
    const u = new ProjectTemplates(q, { repository_id: repoA.id, inventory_id: invA.id })
    await u.create({
      name: 'alpha',
      playbook: 'z.yml',
      inventory_id: invB.id,
      environment_id: envB.id,
    })
    await u.create({ name: 'bravo', app: 'bash', playbook: 'a.sh', repository_id: repoB.id })
    await u.create({
      name: 'charlie',
      playbook: 'm.yml',
      repository_id: repoB.id,
      environment_id: envA.id,
    })
    await u.create({ name: 'delta', app: 'terraform', playbook: '', environment_id: envA.id })

    const expected: Record<string, [string[], string[]]> = {
      name: [
        ['alpha', 'bravo', 'charlie', 'delta'],
        ['delta', 'charlie', 'bravo', 'alpha'],
      ],
      playbook: [
        ['delta', 'bravo', 'charlie', 'alpha'],
        ['alpha', 'charlie', 'bravo', 'delta'],
      ],
      // Templates without one come first ("default" is the Terraform workspace).
      inventory: [
        ['bravo', 'delta', 'charlie', 'alpha'],
        ['alpha', 'charlie', 'delta', 'bravo'],
      ],
      environment: [
        ['bravo', 'charlie', 'delta', 'alpha'],
        ['alpha', 'charlie', 'delta', 'bravo'],
      ],
      repository: [
        ['alpha', 'delta', 'bravo', 'charlie'],
        ['bravo', 'charlie', 'alpha', 'delta'],
      ],
    }
    for (const [column, [asc, desc]] of Object.entries(expected)) {
      expect(await u.names(`?sort=${column}`), `${column} asc`).toEqual(asc)
      expect(await u.names(`?sort=${column}&order=asc`), `${column} asc`).toEqual(asc)
      expect(await u.names(`?sort=${column}&order=desc`), `${column} desc`).toEqual(desc)
    }
    expect(await u.names()).toEqual(['alpha', 'bravo', 'charlie', 'delta'])
    expect(await u.names('?order=desc')).toEqual(['delta', 'charlie', 'bravo', 'alpha'])
    expect(await u.names('?order=sideways')).toEqual(['alpha', 'bravo', 'charlie', 'delta'])
    expect(await u.names('?app=ansible')).toEqual(['alpha', 'charlie'])
    expect(await u.names('?app=terraform&sort=name&order=desc')).toEqual(['delta'])
    expect(await u.names('?app=bash')).toEqual(['bravo'])
    expect(await u.names('?app=tofu')).toEqual([])
    expect(await u.names('?app=constructor')).toEqual([])
    expect(await u.names('?app=')).toEqual(['alpha', 'bravo', 'charlie', 'delta'])
    for (const query of ['?sort=type', '?sort=app', '?sort=id']) {
      expectError(await q.request('GET', `/templates${query}`), 400, /invalid sort column/)
    }
    // Another project's templates never show.
    expect((await t.list()).map((tpl) => tpl.name)).not.toContain('alpha')
  })

  it('lists the templates of a view, and 404 for a view that is not in the project', async () => {
    const { q, u } = await otherProject()
    const first = await q.view('first')
    const second = await q.view('second')
    const a = await u.create({ name: 'view-b', view_id: first.id })
    const b = await u.create({ name: 'view-a', view_id: first.id, app: 'bash', playbook: 'x' })
    const c = await u.create({ name: 'view-c', view_id: second.id })
    await u.create({ name: 'no-view' })
    const inView = (id: number, query = '') => q.list(`/views/${id}/templates${query}`, Template)
    expect((await inView(first.id)).map((tpl) => tpl.id)).toEqual([b.id, a.id])
    expect((await inView(first.id, '?sort=name&order=desc')).map((tpl) => tpl.id)).toEqual([
      a.id,
      b.id,
    ])
    expect((await inView(first.id, '?app=bash')).map((tpl) => tpl.id)).toEqual([b.id])
    expect(await inView(second.id)).toEqual([await u.get(c.id)])

    expectError(await q.request('GET', `/views/${view.id}/templates`), 404, 'View not found')
    expectError(await q.request('GET', '/views/999999999/templates'), 404, 'View not found')
    expectError(
      await q.request('GET', `/views/${first.id}/templates?sort=type`),
      400,
      /invalid sort column/,
    )

    // Deleting a view keeps its templates, outside any view.
    expectNoContent(await q.request('DELETE', `/views/${first.id}`))
    expect((await u.get(a.id)).view_id).toBeNull()
    expect((await u.get(b.id)).view_id).toBeNull()
  })

  it('answers 404 for ids of another project and stores nothing', async () => {
    const { q, u } = await otherProject()
    const key = await q.loginPasswordKey(unique('fk'), 'secret')
    const foreignRepo = await q.repository(unique('fr'), key.id)
    const foreignInventory = await q.inventory(unique('fi'), key.id)
    const foreignWorkspace = await q.inventory(unique('fw'), null, {
      type: 'terraform-workspace',
      inventory: 'w',
    })
    const foreignEnv = await q.environment(unique('fe'), {
      secrets: [{ operation: 'create', name: 'PASS', secret: 'x', type: 'var' }],
    })
    const foreignView = await q.view(unique('fv'))
    const foreignBuild = await u.create({ type: 'build', start_version: '1.0' })
    const foreignTemplate = await u.create()
    // An environment secret is stored as a key, but never one a vault may use.
    const ownEnv = await p.environment(unique('env'), {
      secrets: [{ operation: 'create', name: 'PASS', secret: 'x', type: 'var' }],
    })
    const secretKeyId = present(ownEnv.secrets?.[0]?.id ?? null)
    const mine = await t.create()
    const before = [await snapshot(), await snapshot(q.projectId)]
    const missing = 999_999_999
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ inventory_id: foreignInventory.id }, 'Inventory not found'],
      [{ inventory_id: missing }, 'Inventory not found'],
      [{ app: 'terraform', inventory_id: foreignWorkspace.id }, 'Inventory not found'],
      [{ repository_id: foreignRepo.id }, 'Repository not found'],
      [{ repository_id: missing }, 'Repository not found'],
      [{ environment_id: foreignEnv.id }, 'Environment not found'],
      [{ environment_id: missing }, 'Environment not found'],
      [{ view_id: foreignView.id }, 'View not found'],
      [{ view_id: missing }, 'View not found'],
      [{ type: 'deploy', build_template_id: foreignBuild.id }, 'Build template not found'],
      [{ type: 'deploy', build_template_id: missing }, 'Build template not found'],
      [{ vaults: [{ type: 'password', vault_key_id: key.id }] }, 'Vault key not found'],
      [{ vaults: [{ type: 'password', vault_key_id: secretKeyId }] }, 'Vault key not found'],
    ]
    for (const [fields, message] of cases) {
      expectError(await t.post(fields), 404, message)
      expectError(await t.put(mine, fields), 404, message)
    }
    for (const [method, path, json] of [
      ['GET', `/templates/${foreignTemplate.id}`, undefined],
      ['GET', `/templates/${foreignTemplate.id}/refs`, undefined],
      ['GET', `/templates/${foreignTemplate.id}/schedules`, undefined],
      ['PUT', `/templates/${foreignTemplate.id}`, { ...foreignTemplate, project_id: p.projectId }],
      ['DELETE', `/templates/${foreignTemplate.id}`, undefined],
    ] as const) {
      expectError(await p.request(method, path, json), 404, 'Template not found')
    }
    expect([await snapshot(), await snapshot(q.projectId)]).toEqual(before)
  })

  it('lists deploy templates and integrations as references and refuses to delete while used', async () => {
    const build = await t.create({ type: 'build', start_version: '1.0.0' })
    expect(await p.refs(`/templates/${build.id}`)).toEqual({
      templates: [],
      inventories: [],
      repositories: [],
      integrations: [],
      schedules: [],
    })
    const deploy = await t.create({ type: 'deploy', build_template_id: build.id })
    const integrationId = await insertReturningId(db, 'integration', {
      project_id: p.projectId,
      template_id: build.id,
      name: 'on-push',
    })
    expect(await p.refs(`/templates/${build.id}`)).toEqual({
      templates: [{ id: deploy.id, name: deploy.name }],
      inventories: [],
      repositories: [],
      integrations: [{ id: integrationId, name: 'on-push' }],
      schedules: [],
    })
    const refusedWhileUsed = async () => {
      const before = await snapshot()
      const refused = await p.request('DELETE', `/templates/${build.id}`)
      expect(refused.status).toBe(400)
      expect(refused.body).toEqual({
        error: 'Template is in use by one or more templates',
        inUse: true,
      })
      expect(await snapshot()).toEqual(before)
    }
    await refusedWhileUsed()
    // Either kind of reference alone holds it.
    expectNoContent(await p.request('DELETE', `/templates/${deploy.id}`))
    expect(await p.refs(`/templates/${build.id}`)).toMatchObject({
      templates: [],
      integrations: [{ id: integrationId, name: 'on-push' }],
    })
    await refusedWhileUsed()
    await db.kysely.deleteFrom('integration').where('id', '=', integrationId).execute()
    expect((await p.refs(`/templates/${build.id}`)).integrations).toEqual([])
    expectNoContent(await p.request('DELETE', `/templates/${build.id}`))
    expectError(await p.request('GET', `/templates/${build.id}`), 404, 'Template not found')
    expectError(await p.request('DELETE', `/templates/${build.id}`), 404, 'Template not found')
  })

  it('deletes a template with its tasks, schedules and vaults and frees its workspaces', async () => {
    const tpl = await t.create({
      vaults: [{ type: 'password', vault_key_id: vaultKey.id }],
    })
    const taskIds: number[] = []
    for (const status of ['success', 'error']) {
      const taskId = await insertReturningId(db, 'task', {
        project_id: p.projectId,
        template_id: tpl.id,
        status,
        created: nowIso(),
      })
      await db.kysely
        .insertInto('task_output')
        .values({ task_id: taskId, time: nowIso(), output: `output of ${status}` })
        .execute()
      taskIds.push(taskId)
    }
    for (const repository_id of [null, repo.id]) {
      await insertReturningId(db, 'schedule', {
        project_id: p.projectId,
        template_id: tpl.id,
        repository_id,
        name: unique('sched'),
        cron_format: '* * * * *',
        active: 1,
        created: nowIso(),
      })
    }
    const tf = await t.create({ app: 'terraform' })
    const extra = await p.inventory(unique('ws'), null, {
      type: 'terraform-workspace',
      inventory: 'extra',
      template_id: tf.id,
    })
    const count = async (table: 'task' | 'schedule' | 'template_vault', templateId: number) =>
      (
        await db.kysely
          .selectFrom(table)
          .select('id')
          .where('template_id', '=', templateId)
          .execute()
      ).length
    expect([await count('task', tpl.id), await count('schedule', tpl.id)]).toEqual([2, 2])
    expect(await count('template_vault', tpl.id)).toBe(1)

    expectNoContent(await p.request('DELETE', `/templates/${tpl.id}`))
    expect(await count('task', tpl.id)).toBe(0)
    expect(await count('schedule', tpl.id)).toBe(0)
    expect(await count('template_vault', tpl.id)).toBe(0)
    const outputs = await db.kysely
      .selectFrom('task_output')
      .select('id')
      .where('task_id', 'in', taskIds)
      .execute()
    expect(outputs).toEqual([])
    expectError(await p.request('GET', `/templates/${tpl.id}`), 404, 'Template not found')

    const workspaceId = present(tf.inventory_id)
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toHaveLength(2)
    expectNoContent(await p.request('DELETE', `/templates/${tf.id}`))
    expect(await p.list(`/inventory?template_id=${tf.id}`, Inventory)).toEqual([])
    const free = (await p.list('/inventory?app=terraform', Inventory)).map((i) => i.id)
    expect(free).toEqual(expect.arrayContaining([workspaceId, extra.id]))
  })

  it('lists only the commit-check schedules of a template', async () => {
    const tpl = await t.create()
    const other = await t.create()
    expect(await p.list(`/templates/${tpl.id}/schedules`, Schedule)).toEqual([])
    const ids: Record<string, number> = {}
    for (const [label, templateId, repositoryId] of [
      ['cron', tpl.id, null],
      ['commit', tpl.id, repo.id],
      ['other', other.id, repo.id],
    ] as const) {
      ids[label] = await insertReturningId(db, 'schedule', {
        project_id: p.projectId,
        template_id: templateId,
        repository_id: repositoryId,
        name: label,
        cron_format: '*/5 * * * *',
        active: 1,
        created: nowIso(),
      })
    }
    expect(await p.list(`/templates/${tpl.id}/schedules`, Schedule)).toEqual([
      {
        id: ids.commit,
        project_id: p.projectId,
        template_id: tpl.id,
        cron_format: '*/5 * * * *',
        name: 'commit',
        active: true,
        repository_id: repo.id,
        timezone: '',
        missed_run_policy: 'skip',
        last_run: null,
        last_miss: null,
      },
    ])
    expectError(await p.request('GET', '/templates/999999999/schedules'), 404, 'Template not found')
  })

  it('counts the tasks of a template and shows the newest one', async () => {
    const tpl = await t.create()
    expect([tpl.tasks, tpl.last_task]).toEqual([0, null])
    const first = await insertReturningId(db, 'task', {
      project_id: p.projectId,
      template_id: tpl.id,
      status: 'success',
      created: '2026-01-01T10:00:00.000Z',
    })
    const newest = await insertReturningId(db, 'task', {
      project_id: p.projectId,
      template_id: tpl.id,
      status: 'error',
      message: 'boom',
      user_id: admin.id,
      version: '1.2.3',
      commit_hash: 'abc123',
      created: '2026-01-02T10:00:00.000Z',
      start: '2026-01-02T10:00:01.000Z',
      end: '2026-01-02T10:00:09.000Z',
    })
    expect(newest).toBeGreaterThan(first)
    const read = await t.get(tpl.id)
    expect(read.tasks).toBe(2)
    expect(read.last_task).toEqual({
      id: newest,
      template_id: tpl.id,
      project_id: p.projectId,
      status: 'error',
      message: 'boom',
      commit_hash: 'abc123',
      commit_message: '',
      version: '1.2.3',
      user_id: admin.id,
      user_name: admin.name,
      created: '2026-01-02T10:00:00.000Z',
      start: '2026-01-02T10:00:01.000Z',
      end: '2026-01-02T10:00:09.000Z',
      tpl_alias: tpl.name,
      tpl_type: '',
      tpl_app: 'ansible',
      tpl_playbook: 'site.yml',
    })
    const listed = (await t.list()).find((x) => x.id === tpl.id)
    expect([listed?.tasks, listed?.last_task]).toEqual([2, read.last_task])
  })

  it('records an event for each change', async () => {
    const tpl = await t.create()
    await t.update(tpl, { name: unique('evt') })
    expectNoContent(await p.request('DELETE', `/templates/${tpl.id}`))
    const events = (await p.list('/events', Event)).filter(
      (e) => e.object_type === 'template' && e.object_id === tpl.id,
    )
    expect(events.map((e) => e.description).sort()).toEqual(
      [
        `Template ID ${tpl.id} created`,
        `Template ID ${tpl.id} deleted`,
        `Template ID ${tpl.id} updated`,
      ].sort(),
    )
    expect(events.every((e) => e.user_id === admin.id && e.project_id === p.projectId)).toBe(true)
  })

  it('lets every member read templates but only managers and owners change them', async () => {
    const tpl = await t.create({ view_id: view.id })
    const before = await snapshot()
    const reads = [
      '/templates',
      `/templates/${tpl.id}`,
      `/templates/${tpl.id}/refs`,
      `/templates/${tpl.id}/schedules`,
      `/views/${view.id}/templates`,
    ]
    const writes = [
      ['POST', '/templates', t.body()],
      ['PUT', `/templates/${tpl.id}`, { ...tpl, name: unique('x') }],
      ['DELETE', `/templates/${tpl.id}`, undefined],
    ] as const
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        expect((await world.request('GET', `${p.base}${path}`, { as })).status, path).toBe(200)
      }
      const read = await world.request('GET', `${p.base}/templates/${tpl.id}`, { as })
      expect(expectBody(read, 200, Template)).toEqual(await t.get(tpl.id))
      for (const [method, path, json] of writes) {
        expectError(await world.request(method, `${p.base}${path}`, { as, json }), 403)
      }
    }
    const outsider = cast.outsider.as
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`, { as: outsider }), 404)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, `${p.base}${path}`, { as: outsider, json }), 404)
    }
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`), 401)
    }
    expect(await snapshot()).toEqual(before)

    const managed = await world.request('POST', `${p.base}/templates`, {
      as: cast.manager.as,
      json: t.body(),
    })
    const created = expectBody(managed, 201, Template)
    const asManager = { as: cast.manager.as }
    expectNoContent(
      await world.request('PUT', `${p.base}/templates/${created.id}`, {
        ...asManager,
        json: { ...created, name: unique('managed') },
      }),
    )
    expectNoContent(await world.request('DELETE', `${p.base}/templates/${created.id}`, asManager))
    const guestList = await world.request('GET', `${p.base}/templates`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(Template)).map((x) => x.id)).toContain(tpl.id)
  })

  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const manyValues = (count: number, length: number) =>
      Array.from({ length: count }, (_, i) => ({ name: `v${i}`, value: 'é'.repeat(length) }))
    const tpl = await t.create()
    const before = await snapshot()
    const valid = t.body()
    const update = { ...tpl, name: unique('never') }
    // Two bytes a character: one character more than half the limit is too long.
    const big = 'é'.repeat(MAX_TEXT_BYTES / 2 + 1)
    const mistyped: Array<Record<string, unknown>> = [
      { app: 1 },
      { app: 'x'.repeat(33) },
      { type: 'other' },
      { type: 1 },
      { playbook: 1 },
      { playbook: 'x'.repeat(1025) },
      { description: 1 },
      { description: big },
      { arguments: ['-v'] },
      { arguments: big },
      { allow_override_args_in_task: 'yes' },
      { autorun: 1 },
      { suppress_success_alerts: 'true' },
      { inventory_id: '1' },
      { inventory_id: 0 },
      { inventory_id: -1 },
      { inventory_id: 2.5 },
      { inventory_id: 99_999_999_999 },
      { repository_id: true },
      { repository_id: 2_147_483_648 },
      { environment_id: {} },
      { view_id: [] },
      { view_id: 99_999_999_999 },
      { build_template_id: 'x' },
      { type: 'deploy', build_template_id: 99_999_999_999 },
      { start_version: 1 },
      { type: 'build', start_version: 'x'.repeat(256) },
      { git_branch: 'x'.repeat(256) },
      { git_branch: false },
      { survey_vars: {} },
      { survey_vars: 'x' },
      { survey_vars: [{}] },
      { survey_vars: [1] },
      { survey_vars: [{ name: 'a', title: 'b', values: 'x' }] },
      { survey_vars: [{ name: 'a', title: 'b', values: [{ name: 1, value: 'x' }] }] },
      { survey_vars: [{ name: 'a', title: 'b', required: 'yes' }] },
      { survey_vars: [{ name: 'x'.repeat(256), title: 'b' }] },
      {
        survey_vars: Array.from({ length: 101 }, (_, i) => ({ name: `v${i}`, title: 'T' })),
      },
      { survey_vars: [{ name: 'a', title: 'b', description: 'x'.repeat(4097) }] },
      { survey_vars: [{ name: 'a', title: 'b', type: 'enum', values: manyValues(1001, 1) }] },
      // Each part within its limit, but too long to store as a whole.
      {
        survey_vars: [
          {
            name: 'a',
            title: 'b',
            type: 'enum',
            values: manyValues(Math.ceil(MAX_TEXT_BYTES / 8000) + 1, 4000),
          },
        ],
      },
      { vaults: {} },
      { vaults: [{}] },
      { vaults: [null] },
      { vaults: [{ type: 'password', vault_key_id: 99_999_999_999 }] },
      { vaults: [{ type: 'password', vault_key_id: '1' }] },
      { vaults: [{ type: 'script', script: 1 }] },
      { vaults: [{ type: 'script', script: 'a-client', name: 'x'.repeat(256) }] },
      {
        vaults: Array.from({ length: 51 }, (_, i) => ({
          name: `v${i}`,
          type: 'script',
          script: 'a-client',
        })),
      },
      { task_params: [] },
      { task_params: 'x' },
      { task_params: { text: big } },
    ]
    type Case = [string, string, string, HttpOptions]
    const cases: Case[] = [
      ...malformedBodies(valid).map(([l, o]): Case => [`POST ${l}`, 'POST', '/templates', o]),
      ...malformedBodies(update).map(([l, o]): Case => [
        `PUT ${l}`,
        'PUT',
        `/templates/${tpl.id}`,
        o,
      ]),
      ...mistyped.map((f): Case => [
        `POST ${JSON.stringify(f).slice(0, 120)}`,
        'POST',
        '/templates',
        { json: { ...valid, ...f } },
      ]),
      ...mistyped.map((f): Case => [
        `PUT ${JSON.stringify(f).slice(0, 120)}`,
        'PUT',
        `/templates/${tpl.id}`,
        { json: { ...update, ...f } },
      ]),
      [
        'PUT id as text',
        'PUT',
        `/templates/${tpl.id}`,
        { json: { ...update, id: String(tpl.id) } },
      ],
      ['PUT without id', 'PUT', `/templates/${tpl.id}`, { json: { ...update, id: undefined } }],
    ]
    for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
      cases.push([`GET ${id}`, 'GET', `/templates/${id}`, {}])
      cases.push([`PUT ${id}`, 'PUT', `/templates/${id}`, { json: update }])
      cases.push([`DELETE ${id}`, 'DELETE', `/templates/${id}`, {}])
      cases.push([`refs ${id}`, 'GET', `/templates/${id}/refs`, {}])
      cases.push([`schedules ${id}`, 'GET', `/templates/${id}/schedules`, {}])
      cases.push([`view ${id}`, 'GET', `/views/${id}/templates`, {}])
    }
    for (const query of ['?sort=type', '?sort=', `?app=${'x'.repeat(33)}`, '?order=ascending']) {
      cases.push([`list ${query}`, 'GET', `/templates${query}`, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, `${p.base}${path}`, { as: admin.as, ...options })
      expectRefused(result, label)
    }
    expect(await snapshot()).toEqual(before)
  })
})
