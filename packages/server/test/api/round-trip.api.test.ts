import { execFileSync } from 'node:child_process'
import {
  AccessKey,
  App,
  CreatedRunner,
  Environment,
  Integration,
  IntegrationExtractValue,
  IntegrationMatcher,
  Inventory,
  Project,
  Repository,
  Runner,
  Schedule,
  ScheduleWithTemplate,
  Task,
  TaskOutput,
  TaskWithTemplate,
  TeamMember,
  Template,
  User,
  View,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectNoContent, type HttpResult } from '../support/http.js'
import { generateSshKeys, ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { gitFixture } from '../support/tasks.js'
import { DEFAULT_APPS, setAppsActive } from '../support/templates.js'

/*
 * Every field a client may set is stored and read back as it was sent, by the single GET and
 * in the list, after creation and after an update with other values. Where the server
 * deliberately answers something else, the test names the rule (`Rule` below) and the
 * fields it changes; everything else must come back unchanged.
 */

type Fields = Record<string, unknown>

/** A documented reason why a field reads back differently from what was sent. */
interface Rule {
  rule: string
  fields: Fields
}

const WRITE_ONLY_PASSWORD: Rule = {
  rule: 'passwords are write-only',
  fields: { password: undefined, current_password: undefined },
}
const NOT_DEPLOY: Rule = {
  rule: 'only deploy templates keep a build template',
  fields: { build_template_id: null },
}
const NOT_BUILD: Rule = {
  rule: 'only build templates keep a start version',
  fields: { start_version: null },
}

/** What a field list must read back as: what was sent, changed only by the named rules. */
function expected(sent: Fields, ...rules: Rule[]): Fields {
  const want = { ...sent }
  for (const { fields } of rules) {
    for (const [key, value] of Object.entries(fields)) {
      if (value === undefined) delete want[key]
      else want[key] = value
    }
  }
  return want
}

/** The fields of `want` as `read` has them, so a mismatch shows as one diff. */
function expectFields(label: string, read: unknown, want: Fields): void {
  const record = read as Fields
  const picked = Object.fromEntries(Object.keys(want).map((key) => [key, record[key]]))
  expect(picked, label).toEqual(want)
}

type Item = Fields & { id: unknown }

/** Reads an object back alone and in its list, and compares both with what was sent. */
async function expectStored(
  label: string,
  id: unknown,
  want: Fields,
  read: { one: () => Promise<unknown>; list: () => Promise<readonly Item[]> },
): Promise<void> {
  expectFields(`${label}, read alone`, await read.one(), want)
  const inList = (await read.list()).find((item) => item.id === id)
  expect(inList, `${label}, in the list`).toBeDefined()
  expectFields(`${label}, in the list`, inList, want)
}

const Users = z.array(User)

describe.each(dialects())('round trips on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let p: ProjectResources
  let repoFixture: ReturnType<typeof gitFixture>
  let head: string
  const ids: Record<string, number> = {}

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    // Every app, whatever is installed, so templates of each can be made.
    await setAppsActive(world, DEFAULT_APPS, true)
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    repoFixture = gitFixture()
    head = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repoFixture.path }).toString().trim()

    ids.noneKey = (await p.key(unique('none'))).id
    ids.loginKey = (await p.loginPasswordKey(unique('login'), 'first-password')).id
    ids.loginKey2 = (await p.loginPasswordKey(unique('login'), 'second-password')).id
    ids.repo = (await p.repository(unique('repo'), ids.noneKey)).id
    ids.repo2 = (await p.repository(unique('repo'), ids.noneKey)).id
    // Tasks run from a local repository, so they need no network.
    ids.localRepo = (
      await p.repository(unique('local'), ids.noneKey, {
        git_url: repoFixture.path,
        git_branch: '',
      })
    ).id
    ids.hosts = (await p.inventory(unique('hosts'), ids.noneKey)).id
    ids.hosts2 = (await p.inventory(unique('hosts'), ids.noneKey)).id
    ids.env = (await p.environment(unique('env'))).id
    ids.env2 = (await p.environment(unique('env'))).id
    ids.view = (await p.view(unique('view'))).id
    ids.view2 = (await p.view(unique('view'))).id
    const template = async (fields: Fields) =>
      expectBody(
        await p.request('POST', '/templates', {
          name: unique('tpl'),
          project_id: p.projectId,
          repository_id: ids.repo,
          ...fields,
        }),
        201,
        Template,
      ).id
    ids.build = await template({
      type: 'build',
      start_version: '1.0.0',
      app: 'bash',
      playbook: 'b',
    })
    ids.ansible = await template({ app: 'ansible', playbook: 'site.yml', inventory_id: ids.hosts })
    ids.ansible2 = await template({ app: 'ansible', playbook: 'site.yml', inventory_id: ids.hosts })
    ids.terraform = await template({ app: 'terraform' })
    ids.tofu = await template({ app: 'tofu' })
  })
  afterAll(async () => {
    await server?.stop()
    repoFixture?.dispose()
  })

  const as = () => admin.as
  const send = (method: string, path: string, json?: unknown): Promise<HttpResult> =>
    world.request(method, path, { as: as(), ...(json === undefined ? {} : { json }) })
  const get = async <T extends z.ZodType>(path: string, schema: T): Promise<z.output<T>> =>
    expectBody(await send('GET', path), 200, schema)

  describe('projects, users and teams', () => {
    it('a project keeps name, alerts, chat and task limit; its type is set on creation only', async () => {
      const first = {
        name: unique('project'),
        alert: true,
        alert_chat: '-100123',
        max_parallel_tasks: 4,
        type: 'premium',
      }
      const created = expectBody(await send('POST', '/api/projects', first), 201, Project)
      const read = {
        one: () => get(`/api/project/${created.id}`, Project),
        list: () => get('/api/projects', z.array(Project)),
      }
      expectFields('created project', created, first)
      await expectStored('project', created.id, first, read)

      const second = {
        id: created.id,
        name: unique('project'),
        alert: false,
        alert_chat: '-100456',
        max_parallel_tasks: 9,
        type: '',
      }
      expectNoContent(await send('PUT', `/api/project/${created.id}`, second))
      const typeOnCreation = {
        rule: 'a project type is set on creation only',
        fields: { type: 'premium' },
      }
      await expectStored('updated project', created.id, expected(second, typeOnCreation), read)
    })

    it.each([
      ['a local user', false],
      ['an external user', true],
    ])('%s keeps every field it was given', async (_label, external) => {
      const username = unique('user')
      const first = {
        username,
        name: `First ${username}`,
        email: `${username}@first.example.test`,
        ...(external ? {} : { password: `first-password-${username}` }),
        admin: true,
        external,
        alert: true,
        pro: true,
      }
      const created = expectBody(await send('POST', '/api/users', first), 201, User)
      const read = {
        one: () => get(`/api/users/${created.id}`, User),
        list: () => get('/api/users', Users),
      }
      await expectStored('created user', created.id, expected(first, WRITE_ONLY_PASSWORD), read)

      const second = {
        // An external user's username is the identity provider's: changing it is refused.
        username: external ? username : unique('renamed'),
        name: `Second ${username}`,
        email: `${username}@second.example.test`,
        ...(external ? {} : { password: `second-password-${username}` }),
        admin: false,
        alert: false,
        pro: false,
      }
      expectNoContent(await send('PUT', `/api/users/${created.id}`, second))
      const rules = [WRITE_ONLY_PASSWORD]
      if (external) {
        rules.push({
          rule: "an external user's email is the identity provider's",
          fields: { email: first.email },
        })
      }
      await expectStored('updated user', created.id, expected(second, ...rules), read)
      if (!external) {
        // The password was stored too: it signs the user in.
        await world.signIn(second.username, second.password as string)
      }
    })

    it('a team member keeps the role given and changed', async () => {
      const user = await world.createUser()
      const base = `/api/project/${p.projectId}/users`
      expectNoContent(
        await send('POST', base, {
          user_id: user.id,
          role: 'task_runner',
          project_id: p.projectId,
        }),
      )
      const read = {
        one: async () => ({
          ...(await get(`${base}/${user.id}`, User)),
          role: (await get(base, z.array(TeamMember))).find((m) => m.id === user.id)?.role,
        }),
        list: () => get(base, z.array(TeamMember)),
      }
      const member = { username: user.username, name: user.name }
      await expectStored('member', user.id, { ...member, role: 'task_runner' }, read)
      expectNoContent(await send('PUT', `${base}/${user.id}`, { role: 'manager' }))
      await expectStored('member', user.id, { ...member, role: 'manager' }, read)
    })
  })

  describe('project resources', () => {
    it('a key keeps its name and type; secrets are write-only and change only with override_secret', async () => {
      const ssh = generateSshKeys()
      const first = {
        name: unique('key'),
        type: 'login_password',
        project_id: p.projectId,
        login_password: { login: 'deploy', password: 'first-secret' },
      }
      const secretsHidden: Rule = {
        rule: 'secrets are write-only: answers carry them blank',
        fields: {
          login_password: { login: '', password: '' },
          ssh: { login: '', passphrase: '', private_key: '' },
          string: '',
          override_secret: false,
        },
      }
      const created = expectBody(await p.request('POST', '/keys', first), 201, AccessKey)
      const read = {
        one: () => p.get(`/keys/${created.id}`, AccessKey),
        list: () => p.list('/keys', AccessKey),
      }
      await expectStored('created key', created.id, expected(first, secretsHidden), read)

      const second = {
        id: created.id,
        name: unique('key'),
        type: 'ssh',
        project_id: p.projectId,
        override_secret: true,
        ssh: { login: 'git', passphrase: ssh.passphrase, private_key: ssh.encrypted },
      }
      expectNoContent(await p.request('PUT', `/keys/${created.id}`, second))
      await expectStored('key with a new secret', created.id, expected(second, secretsHidden), read)

      const third = { id: created.id, name: unique('key'), type: 'none', project_id: p.projectId }
      expectNoContent(await p.request('PUT', `/keys/${created.id}`, third))
      const nameOnly: Rule = {
        rule: 'without override_secret only the name of a key changes',
        fields: { type: 'ssh' },
      }
      await expectStored('renamed key', created.id, expected(third, nameOnly), read)
    })

    it('a repository keeps every field', async () => {
      const first = {
        name: unique('repo'),
        project_id: p.projectId,
        git_url: 'https://example.test/team/first.git',
        git_branch: 'release',
        ssh_key_id: ids.loginKey,
      }
      const created = expectBody(await p.request('POST', '/repositories', first), 201, Repository)
      const read = {
        one: () => p.get(`/repositories/${created.id}`, Repository),
        list: () => p.list('/repositories', Repository),
      }
      await expectStored('created repository', created.id, first, read)
      const second = {
        id: created.id,
        name: unique('repo'),
        project_id: p.projectId,
        git_url: 'git@example.test:team/second.git',
        git_branch: 'develop',
        ssh_key_id: ids.loginKey2,
      }
      expectNoContent(await p.request('PUT', `/repositories/${created.id}`, second))
      await expectStored('updated repository', created.id, second, read)
    })

    const INVENTORY_CONTENT: Record<string, string> = {
      static: '[web]\nweb1.example.test',
      'static-yaml': 'all:\n  hosts:\n    web1.example.test:',
      file: 'inventories/prod/hosts',
      'terraform-workspace': 'production',
      'tofu-workspace': 'staging',
    }
    const NEXT_TYPE: Record<string, string> = {
      static: 'static-yaml',
      'static-yaml': 'file',
      file: 'static',
      'terraform-workspace': 'tofu-workspace',
      'tofu-workspace': 'terraform-workspace',
    }
    const ownerOf = (type: string, round: 1 | 2): number =>
      type === 'terraform-workspace'
        ? ids.terraform!
        : type === 'tofu-workspace'
          ? ids.tofu!
          : round === 1
            ? ids.ansible!
            : ids.ansible2!

    it.each(Object.keys(INVENTORY_CONTENT))(
      'a %s inventory keeps every field, also when its type changes',
      async (type) => {
        const body = (kind: string, round: 1 | 2) => ({
          name: unique('inv'),
          project_id: p.projectId,
          type: kind,
          inventory: `${INVENTORY_CONTENT[kind]}${round === 2 ? '2' : ''}`,
          ssh_key_id: round === 1 ? ids.loginKey : ids.loginKey2,
          become_key_id: round === 1 ? ids.loginKey2 : ids.loginKey,
          repository_id: round === 1 ? ids.repo : ids.repo2,
          template_id: ownerOf(kind, round),
        })
        const first = body(type, 1)
        const created = expectBody(await p.request('POST', '/inventory', first), 201, Inventory)
        const readAs = (sent: { template_id: number }) => ({
          one: () => p.get(`/inventory/${created.id}`, Inventory),
          // Inventories owned by a template are listed with it.
          list: () => p.list(`/inventory?template_id=${sent.template_id}`, Inventory),
        })
        await expectStored(`created ${type} inventory`, created.id, first, readAs(first))

        const second = { ...body(NEXT_TYPE[type]!, 2), id: created.id }
        expectNoContent(await p.request('PUT', `/inventory/${created.id}`, second))
        await expectStored(`updated ${type} inventory`, created.id, second, readAs(second))
      },
    )

    it('an environment keeps its variables, image and secret names; values are write-only', async () => {
      const first = {
        name: unique('env'),
        project_id: p.projectId,
        password: 'first-vault-password',
        json: '{"region":"eu","replicas":2}',
        env: '{"MODE":"first"}',
        image: 'dind-runner:v2.0.3',
        secrets: [
          { operation: 'create', name: 'api_token', type: 'var', secret: 'token-1' },
          { operation: 'create', name: 'DB_PASSWORD', type: 'env', secret: 'db-1' },
        ],
      }
      const passwordHidden: Rule = {
        rule: 'the password is write-only: "" says one is stored',
        fields: { password: '' },
      }
      const secretsAsRead = (list: Array<{ name: string; type: string }>): Rule => ({
        rule: 'secrets read back as names and types, values blank and lists without them',
        fields: {
          secrets: list.map((s) => ({ ...s, id: expect.any(Number), secret: '', operation: '' })),
        },
      })
      const created = expectBody(await p.request('POST', '/environment', first), 201, Environment)
      const one = () => p.get(`/environment/${created.id}`, Environment)
      const list = () => p.list('/environment', Environment)
      const noSecrets = { rule: 'environment lists carry no secrets', fields: { secrets: null } }
      const firstSecrets = secretsAsRead([
        { name: 'api_token', type: 'var' },
        { name: 'DB_PASSWORD', type: 'env' },
      ])
      expectFields(
        'created environment',
        await one(),
        expected(first, passwordHidden, firstSecrets),
      )
      const listed = (await list()).find((e) => e.id === created.id)
      expectFields('environment in the list', listed, expected(first, passwordHidden, noSecrets))

      const stored = (await one()).secrets ?? []
      const idOf = (name: string) => stored.find((s) => s.name === name)?.id
      const second = {
        id: created.id,
        name: unique('env'),
        project_id: p.projectId,
        password: 'second-vault-password',
        json: '{"region":"us"}',
        env: '{"MODE":"second","DEBUG":"1"}',
        image: 'nodejs-runner:v2.0.4',
        secrets: [
          { operation: 'update', id: idOf('api_token'), name: 'api_key', type: 'env', secret: '' },
          { operation: 'delete', id: idOf('DB_PASSWORD') },
          { operation: 'create', name: 'extra', type: 'var', secret: 'extra-1' },
        ],
      }
      expectNoContent(await p.request('PUT', `/environment/${created.id}`, second))
      const secondSecrets = secretsAsRead([
        { name: 'api_key', type: 'env' },
        { name: 'extra', type: 'var' },
      ])
      const updated = await one()
      expectFields('updated environment', updated, expected(second, passwordHidden, secondSecrets))
      // A renamed secret is the same secret.
      expect(updated.secrets?.find((s) => s.name === 'api_key')?.id).toBe(idOf('api_token'))
      const relisted = (await list()).find((e) => e.id === created.id)
      expectFields('environment in the list', relisted, expected(second, passwordHidden, noSecrets))
    })

    it('a view keeps its title and position', async () => {
      const first = { title: unique('view'), position: 7, project_id: p.projectId }
      const created = expectBody(await p.request('POST', '/views', first), 201, View)
      const read = {
        one: () => p.get(`/views/${created.id}`, View),
        list: () => p.list('/views', View),
      }
      await expectStored('created view', created.id, first, read)
      const second = {
        id: created.id,
        title: unique('view'),
        position: -3,
        project_id: p.projectId,
      }
      expectNoContent(await p.request('PUT', `/views/${created.id}`, second))
      await expectStored('updated view', created.id, second, read)
    })
  })

  describe('templates', () => {
    const PLAYBOOKS: Record<string, [string, string]> = {
      ansible: ['site.yml', 'playbooks/deploy.yml'],
      terraform: ['infra/prod', 'infra/stage'],
      tofu: ['infra/prod', 'infra/stage'],
      pulumi: ['stacks/web', 'stacks/api'],
      bash: ['run.sh', 'scripts/deploy.sh'],
      powershell: ['run.ps1', 'scripts/deploy.ps1'],
      python: ['run.py', 'scripts/deploy.py'],
    }
    const TASK_PARAMS: Record<string, [Fields, Fields]> = {
      ansible: [
        { limit: ['web'], tags: ['deploy'], skip_tags: ['slow'], debug: true },
        { limit: ['db'], tags: [], diff: true },
      ],
      terraform: [
        { auto_approve: true, override_backend: true, backend_filename: 'backend_override.tf' },
        { plan: true, override_backend: false },
      ],
      tofu: [{ upgrade: true, reconfigure: true }, { destroy: true }],
    }
    const paramsOf = (app: string, round: 0 | 1): Fields =>
      TASK_PARAMS[app]?.[round] ?? { note: `round ${round} of ${app}` }
    const SURVEY: [Fields[], Fields[]] = [
      [
        {
          name: 'region',
          title: 'Region',
          description: 'Where it runs',
          type: 'enum',
          required: true,
          values: [
            { name: 'Europe', value: 'eu' },
            { name: 'America', value: 'us' },
          ],
        },
        {
          name: 'count',
          title: 'Count',
          description: '',
          type: 'int',
          required: false,
          values: [],
        },
      ],
      [
        {
          name: 'token',
          title: 'Token',
          description: 'API token',
          type: 'secret',
          required: true,
          values: [],
        },
      ],
    ]

    const firstVaults = () => [
      { name: 'prod', type: 'password', vault_key_id: ids.loginKey, script: null },
      { name: null, type: 'script', vault_key_id: null, script: 'vault-client.py' },
    ]
    const secondVaults = () => [
      { name: 'stage', type: 'password', vault_key_id: ids.loginKey2, script: null },
      { name: 'ops', type: 'script', vault_key_id: null, script: 'ops/vault-client' },
    ]

    /** An inventory the app can use: a fresh workspace for Terraform and OpenTofu. */
    async function inventoryFor(app: string, round: 0 | 1): Promise<number> {
      if (app === 'terraform' || app === 'tofu') {
        const workspace = await p.inventory(unique('ws'), null, {
          type: `${app}-workspace`,
          inventory: unique('workspace'),
        })
        return workspace.id
      }
      return round === 0 ? ids.hosts! : ids.hosts2!
    }

    /** Vaults as sent: the fields of a vault the answer must repeat. */
    function vaultsOf(template: Template): Fields[] {
      return template.vaults.map(({ name, type, vault_key_id, script }) => ({
        name,
        type,
        vault_key_id,
        script,
      }))
    }

    /** A template as read, with its vaults cut to the fields a client sends. */
    const comparable = (template: Template): Item => ({ ...template, vaults: vaultsOf(template) })

    it.each(DEFAULT_APPS)(
      'a template of %s keeps every field, as a build and then as a deploy template',
      async (app) => {
        const first = {
          name: unique(app),
          project_id: p.projectId,
          app,
          description: `Builds with ${app}`,
          type: 'build',
          playbook: PLAYBOOKS[app]![0],
          arguments: '["--first"]',
          allow_override_args_in_task: true,
          inventory_id: await inventoryFor(app, 0),
          repository_id: ids.repo,
          environment_id: ids.env,
          view_id: ids.view,
          build_template_id: ids.build,
          start_version: '1.2.3',
          autorun: true,
          git_branch: 'feature/first',
          survey_vars: SURVEY[0],
          // Vaults belong to Ansible; other apps refuse them.
          vaults: app === 'ansible' ? firstVaults() : [],
          suppress_success_alerts: true,
          task_params: paramsOf(app, 0),
          runner_tag: 'linux',
        }
        const created = expectBody(await p.request('POST', '/templates', first), 201, Template)
        const read = {
          one: async () => comparable(await p.get(`/templates/${created.id}`, Template)),
          list: async () => (await p.list('/templates', Template)).map(comparable),
        }
        expectFields('created template', comparable(created), expected(first, NOT_DEPLOY))
        await expectStored(`created ${app} template`, created.id, expected(first, NOT_DEPLOY), read)

        const [kept] = created.vaults
        const second = {
          id: created.id,
          name: unique(app),
          project_id: p.projectId,
          app,
          description: `Deploys with ${app}`,
          type: 'deploy',
          playbook: PLAYBOOKS[app]![1],
          arguments: '["--second", "--verbose"]',
          allow_override_args_in_task: false,
          inventory_id: await inventoryFor(app, 1),
          repository_id: ids.repo2,
          environment_id: ids.env2,
          view_id: ids.view2,
          build_template_id: ids.build,
          start_version: '9.9.9',
          autorun: false,
          git_branch: 'feature/second',
          survey_vars: SURVEY[1],
          vaults: app === 'ansible' ? secondVaults() : [],
          suppress_success_alerts: false,
          task_params: paramsOf(app, 1),
          runner_tag: 'windows',
        }
        // The first vault goes back with its id (so it is changed in place), the second
        // without (so it is a new one); the other stored vault is removed.
        const withId = second.vaults.map((vault, index) =>
          index === 0 && kept ? { ...vault, id: kept.id } : vault,
        )
        expectNoContent(
          await p.request('PUT', `/templates/${created.id}`, { ...second, vaults: withId }),
        )
        await expectStored(`updated ${app} template`, created.id, expected(second, NOT_BUILD), read)
        if (kept) {
          const updated = await p.get(`/templates/${created.id}`, Template)
          expect(updated.vaults[0]?.id).toBe(kept.id)
        }
      },
    )

    it.each(DEFAULT_APPS)(
      'an inventory used by a template of %s lists it in its refs and can not be deleted',
      async (app) => {
        const workspaceApp = app === 'terraform' || app === 'tofu'
        const fresh = async () =>
          workspaceApp ? inventoryFor(app, 0) : (await p.inventory(unique('inv'), ids.noneKey!)).id
        const inventoryId = await fresh()
        const body = {
          name: unique(app),
          project_id: p.projectId,
          app,
          playbook: PLAYBOOKS[app]![0],
          repository_id: ids.repo,
          inventory_id: inventoryId,
        }
        const created = expectBody(await p.request('POST', '/templates', body), 201, Template)
        expect(created.inventory_id).toBe(inventoryId)
        expect((await p.refs(`/inventory/${inventoryId}`)).templates).toEqual([
          { id: created.id, name: body.name },
        ])
        const refused = await p.request('DELETE', `/inventory/${inventoryId}`)
        expect(refused.status).toBe(400)
        expect(refused.body).toEqual({
          error: 'Inventory is in use by one or more templates',
          inUse: true,
        })
        expect((await p.get(`/inventory/${inventoryId}`, Inventory)).id).toBe(inventoryId)

        // Once the template uses another inventory (or none), this one may go.
        const replacement = app === 'ansible' || workspaceApp ? await fresh() : null
        expectNoContent(
          await p.request('PUT', `/templates/${created.id}`, {
            ...body,
            id: created.id,
            inventory_id: replacement,
          }),
        )
        expect((await p.refs(`/inventory/${inventoryId}`)).templates).toEqual([])
        expectNoContent(await p.request('DELETE', `/inventory/${inventoryId}`))
      },
    )
  })

  describe('schedules and integrations', () => {
    it.each([
      ['a cron schedule', false],
      ['a commit check', true],
    ])('%s keeps every field', async (_label, commitCheck) => {
      const first = {
        name: unique('schedule'),
        project_id: p.projectId,
        template_id: ids.ansible,
        cron_format: '15 3 1 1 *',
        active: false,
        timezone: 'Europe/Berlin',
        missed_run_policy: 'run_once',
        repository_id: commitCheck ? ids.repo : null,
      }
      const created = expectBody(await p.request('POST', '/schedules', first), 201, Schedule)
      // Commit checks are listed with their template, cron schedules with the project.
      const readAs = (sent: { template_id: number | undefined }) => ({
        one: () => p.get(`/schedules/${created.id}`, Schedule),
        list: () =>
          commitCheck
            ? p.list(`/templates/${sent.template_id}/schedules`, Schedule)
            : p.list('/schedules', ScheduleWithTemplate),
      })
      await expectStored('created schedule', created.id, first, readAs(first))
      const second = {
        id: created.id,
        name: unique('schedule'),
        project_id: p.projectId,
        template_id: ids.ansible2,
        cron_format: '30 4 2 2 *',
        active: true,
        timezone: 'America/New_York',
        missed_run_policy: 'skip',
        repository_id: commitCheck ? ids.repo2 : null,
      }
      expectNoContent(await p.request('PUT', `/schedules/${created.id}`, second))
      await expectStored('updated schedule', created.id, second, readAs(second))
      // Not left to fire while the other tests run.
      expectNoContent(await p.request('DELETE', `/schedules/${created.id}`))
    })

    it('an integration, its matcher and its extracted value keep every field', async () => {
      const first = {
        name: unique('hook'),
        project_id: p.projectId,
        template_id: ids.ansible,
        auth_method: 'token',
        auth_secret_id: ids.loginKey,
        auth_header: 'X-Token',
        searchable: true,
        task_params: { message: 'from a hook', git_branch: 'main' },
        debounce: true,
      }
      const created = expectBody(await p.request('POST', '/integrations', first), 201, Integration)
      const base = `/integrations/${created.id}`
      await expectStored('created integration', created.id, first, {
        one: () => p.get(base, Integration),
        list: () => p.list('/integrations', Integration),
      })
      const second = {
        id: created.id,
        name: unique('hook'),
        project_id: p.projectId,
        template_id: ids.ansible2,
        auth_method: 'hmac',
        auth_secret_id: ids.loginKey2,
        auth_header: 'X-Signature',
        searchable: false,
        task_params: { environment: '{"from":"hook"}' },
        debounce: false,
      }
      expectNoContent(await p.request('PUT', base, second))
      await expectStored('updated integration', created.id, second, {
        one: () => p.get(base, Integration),
        list: () => p.list('/integrations', Integration),
      })

      // Fields a match type or value source does not read are kept as sent all the same.
      const parts = [
        {
          path: 'matchers',
          schema: IntegrationMatcher,
          status: 200,
          first: {
            name: 'event',
            match_type: 'header',
            method: 'contains',
            body_data_type: 'json',
            key: 'X-Event',
            value: 'push',
          },
          second: {
            name: 'payload',
            match_type: 'body',
            method: 'unequals',
            body_data_type: 'string',
            key: 'kept',
            value: 'ping',
          },
        },
        {
          path: 'values',
          schema: IntegrationExtractValue,
          status: 201,
          first: {
            name: 'request',
            value_source: 'header',
            body_data_type: 'json',
            key: 'X-Request-Id',
            variable: 'REQUEST_ID',
          },
          second: {
            name: 'payload',
            value_source: 'body',
            body_data_type: 'string',
            key: 'kept',
            variable: 'PAYLOAD',
          },
        },
      ] as const
      for (const part of parts) {
        const sent = { integration_id: created.id, ...part.first }
        const made = expectBody(
          await p.request('POST', `${base}/${part.path}`, sent),
          part.status,
          part.schema,
        )
        const read = {
          one: () => p.get(`${base}/${part.path}/${made.id}`, part.schema),
          list: () => p.list(`${base}/${part.path}`, part.schema),
        }
        await expectStored(`created ${part.path}`, made.id, sent, read)
        const changed = { id: made.id, integration_id: created.id, ...part.second }
        expectNoContent(await p.request('PUT', `${base}/${part.path}/${made.id}`, changed))
        await expectStored(`updated ${part.path}`, made.id, changed, read)
      }
    })
  })

  describe('tasks', () => {
    async function templateFor(fields: Fields): Promise<Template> {
      return expectBody(
        await p.request('POST', '/templates', {
          name: unique('run'),
          project_id: p.projectId,
          repository_id: ids.localRepo,
          allow_override_args_in_task: true,
          ...fields,
        }),
        201,
        Template,
      )
    }

    async function finished(id: number): Promise<Task> {
      for (let attempt = 0; attempt < 500; attempt += 1) {
        const task = await p.get(`/tasks/${id}`, Task)
        if (['success', 'error', 'stopped'].includes(task.status)) return task
        await new Promise((resolve) => setTimeout(resolve, 40))
      }
      throw new Error(`task ${id} did not finish`)
    }

    /** Reads a task alone, in the project's list and in its template's list. */
    async function expectTask(label: string, task: Task, want: Fields): Promise<void> {
      await expectStored(label, task.id, want, {
        one: () => p.get(`/tasks/${task.id}`, Task),
        list: () => p.list('/tasks', TaskWithTemplate),
      })
      const ofTemplate = await p.list(`/templates/${task.template_id}/tasks`, TaskWithTemplate)
      expectFields(
        `${label}, in its template's list`,
        ofTemplate.find((t) => t.id === task.id),
        want,
      )
    }

    it.each([
      ['bash', 'ok.sh', { note: 'kept' }],
      ['python', 'hello.py', { note: 'kept' }],
      ['pulumi', 'up', {}],
      ['terraform', '', { plan: true, destroy: true, auto_approve: true, upgrade: true }],
      ['tofu', '', { reconfigure: true }],
    ])('a task of %s keeps every field it was given', async (app, playbook, params) => {
      const template = await templateFor({ app, playbook })
      const sent = {
        template_id: template.id,
        message: `Run of ${app}`,
        git_branch: 'main',
        environment: '{"region":"eu"}',
        arguments: '["--task-arg"]',
        limit: 'web1',
        inventory_id: app === 'terraform' || app === 'tofu' ? template.inventory_id : ids.hosts2,
        params,
        debug: true,
        dry_run: true,
        diff: true,
      }
      const task = expectBody(await p.request('POST', '/tasks', sent), 201, Task)
      expectFields('created task', task, sent)
      await expectTask(`${app} task`, task, sent)
    })

    it('an Ansible task keeps every field; the legacy flags are copied into params', async () => {
      const template = await templateFor({
        app: 'ansible',
        playbook: 'site.yml',
        inventory_id: ids.hosts,
      })
      const sent = {
        template_id: template.id,
        message: 'Run of ansible',
        git_branch: 'main',
        commit_hash: head,
        environment: '{"region":"eu"}',
        arguments: '["--forks", "3"]',
        limit: 'web1,web2',
        playbook: 'other.yml',
        inventory_id: ids.hosts2,
        params: { tags: ['deploy'], skip_tags: ['slow'] },
        debug: true,
        dry_run: true,
        diff: true,
      }
      const task = expectBody(await p.request('POST', '/tasks', sent), 201, Task)
      const legacy: Rule = {
        rule: 'Ansible tasks copy debug, dry_run, diff and limit into params',
        fields: {
          params: {
            ...sent.params,
            debug: true,
            dry_run: true,
            diff: true,
            limit: ['web1', 'web2'],
          },
        },
      }
      await expectTask('ansible task', task, expected(sent, legacy))
    })

    it('a bash template with an inventory runs its script without any inventory argument', async () => {
      const withInventory = await templateFor({
        app: 'bash',
        playbook: 'ok.sh',
        inventory_id: ids.hosts,
        arguments: '["--flag"]',
      })
      expect(withInventory.inventory_id).toBe(ids.hosts)
      const run = expectBody(
        await p.request('POST', '/tasks', { template_id: withInventory.id }),
        201,
        Task,
      )
      expect((await finished(run.id)).status).toBe('success')
      const lines = (await p.list(`/tasks/${run.id}/output`, TaskOutput)).map((o) => o.output)
      expect(lines).toContain('args:--flag')
    })

    it('a build task keeps its version and a deploy task the build task it was given', async () => {
      const build = await templateFor({
        app: 'bash',
        playbook: 'ok.sh',
        type: 'build',
        start_version: '2.0.0',
      })
      const built = expectBody(
        await p.request('POST', '/tasks', { template_id: build.id }),
        201,
        Task,
      )
      expect(built.version).toBe('2.0.0')
      expect((await finished(built.id)).status).toBe('success')
      const deploy = await templateFor({
        app: 'bash',
        playbook: 'ok.sh',
        type: 'deploy',
        build_template_id: build.id,
      })
      const sent = { template_id: deploy.id, build_task_id: built.id, message: 'Deploy 2.0.0' }
      const task = expectBody(await p.request('POST', '/tasks', sent), 201, Task)
      await expectTask('deploy task', task, sent)
    })
  })

  // Last: a runner makes the server hand tasks to runners instead of running them itself.
  describe('runners and apps', () => {
    it.each([
      ['a global runner', false],
      ['a project runner', true],
    ])('%s keeps every field', async (_label, inProject) => {
      const base = inProject ? `/api/project/${p.projectId}/runners` : '/api/runners'
      const first = {
        name: unique('runner'),
        webhook: 'https://hooks.example.test/runner',
        max_parallel_tasks: 3,
        active: false,
        tag: 'linux,arm64',
        ...(inProject ? { project_id: p.projectId } : {}),
      }
      const created = expectBody(await send('POST', base, first), 201, CreatedRunner)
      const read = {
        one: () => get(`${base}/${created.id}`, Runner),
        list: () => get(base, z.array(Runner)),
      }
      await expectStored('created runner', created.id, first, read)
      const second = {
        id: created.id,
        name: unique('runner'),
        webhook: 'http://other.example.test/hook',
        max_parallel_tasks: 5,
        active: true,
        tag: 'windows',
        ...(inProject ? { project_id: p.projectId } : {}),
      }
      expectNoContent(await send('PUT', `${base}/${created.id}`, second))
      await expectStored('updated runner', created.id, second, read)
      expectNoContent(await send('DELETE', `${base}/${created.id}`))
    })

    it.each(['python', 'round-trip-app'])('the settings of the app %s are kept', async (id) => {
      const first = {
        active: true,
        priority: 321,
        title: 'First title',
        icon: 'first-icon',
        color: '#112233',
        dark_color: '#445566',
        path: '/opt/first/bin/run',
        args: ['--first', '-x'],
      }
      const read = {
        one: () => get(`/api/apps/${id}`, App),
        list: () => get('/api/apps', z.array(App)),
      }
      expectNoContent(await send('PUT', `/api/apps/${id}`, first))
      await expectStored(`app ${id}`, id, first, read)
      const second = {
        active: false,
        priority: 12,
        title: 'Second title',
        icon: 'second-icon',
        color: '#778899',
        dark_color: '#aabbcc',
        path: '/opt/second/bin/run',
        args: ['--second'],
      }
      expectNoContent(await send('PUT', `/api/apps/${id}`, second))
      await expectStored(`app ${id}`, id, second, read)
    })
  })
})
