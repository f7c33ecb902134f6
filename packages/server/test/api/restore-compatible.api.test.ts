import { readFileSync } from 'node:fs'
import {
  AccessKey,
  ENVIRONMENT_IMAGES,
  Event,
  Integration,
  Inventory,
  ProjectBackup,
  Repository,
  RestoredProject,
  Schedule,
  Template,
  type RestoreReportItem,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectNoContent } from '../support/http.js'
import { named, projectSnapshot, type ProjectSnapshot } from '../support/project-snapshot.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

type BackupFile = Record<string, unknown> & { meta: Record<string, unknown> }

function sample(name: string): BackupFile {
  const url = new URL(`../fixtures/backups/${name}`, import.meta.url)
  return JSON.parse(readFileSync(url, 'utf8')) as BackupFile
}

describe.each(dialects())('restoring compatible backups on %s', (dialect) => {
  let server: TestServer
  let world: World
  let owner: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    owner = await world.admin()
  })
  afterAll(async () => {
    await server?.stop()
  })

  const restore = async (file: BackupFile, name = unique('restored')) => {
    const restored = expectBody(
      await world.request('POST', '/api/projects/restore', {
        as: owner.as,
        json: { ...file, meta: { ...file.meta, name } },
      }),
      200,
      RestoredProject,
    )
    const project = new ProjectResources(world.request.bind(world), owner.as, restored.id)
    return { restored, project, state: await projectSnapshot(project) }
  }
  const events = async (project: ProjectResources) =>
    (await project.list('/events', Event)).map((e) => e.description)

  it('restores a 2024 file: template crons, vaults of one key, and the older vault_key', async () => {
    const { restored, project, state } = await restore(sample('compatible-2024.json'), 'Web')
    expect(restored.restore_report).toEqual<RestoreReportItem[]>([
      {
        path: 'inventories[Staging].become_key',
        reason: 'key "old-become-password" is not in the file; left empty',
      },
    ])
    expect(state.project).toEqual({
      name: 'Web',
      alert: true,
      alert_chat: '-1001234567890',
      max_parallel_tasks: 2,
      type: '',
    })
    expect(state.keys).toEqual([
      { name: 'deploy-ssh', type: 'ssh' },
      { name: 'None', type: 'none' },
      { name: 'vault-password', type: 'login_password' },
    ])
    expect(state.environments).toEqual([
      { name: 'Empty', json: '{}', env: null, image: null },
      {
        name: 'Production',
        json: '{"app_env": "production"}',
        env: '{"TZ": "UTC"}',
        image: null,
      },
    ])
    expect(state.views).toEqual([
      { title: 'Deploys', position: 0 },
      { title: 'Maintenance', position: 1 },
    ])
    expect(state.repositories).toEqual([
      {
        name: 'Demo',
        git_url: 'https://github.com/semaphoreui/demo-project.git',
        git_branch: 'main',
        ssh_key: 'None',
      },
      {
        name: 'infrastructure',
        git_url: 'git@git.example.test:platform/infrastructure.git',
        git_branch: 'main',
        ssh_key: 'deploy-ssh',
      },
    ])
    expect(state.inventories).toEqual([
      {
        name: 'Build',
        type: 'static',
        inventory: '[builder]\nlocalhost ansible_connection=local',
        ssh_key: 'None',
        become_key: null,
        repository: null,
        template: null,
      },
      {
        name: 'network-prod',
        type: 'terraform-workspace',
        inventory: 'prod',
        ssh_key: null,
        become_key: null,
        repository: null,
        // The terraform template naming the workspace owns it.
        template: 'Network',
      },
      {
        name: 'Staging',
        type: 'file',
        inventory: 'invs/staging/hosts',
        ssh_key: 'deploy-ssh',
        become_key: null,
        repository: null,
        template: null,
      },
    ])
    expect(state.templates.map((t) => t.name)).toEqual([
      'Build',
      'Deploy to Staging',
      'Network',
      'Rotate logs',
    ])
    expect(named(state.templates, 'Build')).toMatchObject({
      app: 'ansible',
      type: 'build',
      playbook: 'build.yml',
      arguments: '[]',
      description: 'Builds the application',
      start_version: '1.0.0',
      survey_vars: [],
      inventory: 'Build',
      repository: 'Demo',
      environment: 'Empty',
      view: 'Deploys',
      vaults: [],
    })
    expect(named(state.templates, 'Deploy to Staging')).toMatchObject({
      type: 'deploy',
      allow_override_args_in_task: true,
      build_template: 'Build',
      environment: 'Production',
      survey_vars: [
        {
          name: 'release_note',
          title: 'Release note',
          description: 'Shown in the changelog',
          type: '',
          required: false,
          values: [],
        },
      ],
      // A 2024 vault: a key and maybe a name, always a password.
      vaults: [{ name: null, type: 'password', script: null, vault_key: 'vault-password' }],
    })
    expect(named(state.templates, 'Rotate logs')).toMatchObject({
      // No app: Ansible, as the compatible server reads it.
      app: 'ansible',
      inventory: 'Staging',
      repository: 'infrastructure',
      view: 'Maintenance',
      // The template's own vault_key of older files: the default password vault.
      vaults: [{ name: null, type: 'password', script: null, vault_key: 'vault-password' }],
    })
    expect(named(state.templates, 'Network')).toMatchObject({
      app: 'terraform',
      inventory: 'network-prod',
      environment: 'Production',
    })
    // No schedules list in 2024: a template's cron is a commit check on its repository.
    expect(state.schedules).toEqual([])
    expect(state.commitChecks).toEqual([
      { template: 'Build', cron_format: '30 2 29 2 *', active: true, repository: 'Demo' },
    ])
    expect(state.integrations).toEqual([
      {
        name: 'Deploy on push',
        template: 'Deploy to Staging',
        auth_method: 'github',
        auth_header: '',
        auth_secret: 'vault-password',
        searchable: false,
        debounce: false,
        task_params: null,
        matchers: [
          {
            name: 'main branch',
            match_type: 'body',
            method: 'equals',
            body_data_type: 'json',
            key: 'ref',
            value: 'refs/heads/main',
          },
        ],
        values: [
          {
            name: 'commit',
            value_source: 'body',
            body_data_type: 'json',
            key: 'after',
            variable: 'commit_sha',
          },
        ],
        aliases: ['legacy-push-hook-alias'],
      },
    ])
    expect(state.projectAliases).toEqual(['legacy-project-alias'])
    expect(await events(project)).toContain(
      'Project restored from a backup; 1 item could not be mapped',
    )
  })

  it('restores a target file: schedules, integrations, vaults, survey variables and workspaces', async () => {
    const { restored, state } = await restore(sample('compatible-target.json'))
    // The all-empty entry the compatible server writes for a schedule of a deleted template.
    expect(restored.restore_report).toEqual<RestoreReportItem[]>([
      {
        path: 'schedules[1]',
        reason: 'names no template (written for a schedule whose template was deleted); skipped',
      },
    ])
    expect(state.keys.map((k) => `${k.name}:${k.type}`)).toEqual([
      'ansible-vault:login_password',
      'git-deploy:ssh',
      'None:none',
      'webhook-secret:login_password',
    ])
    expect(state.views).toEqual([
      { title: 'Ansible', position: 1 },
      { title: 'Terraform', position: 0 },
    ])
    expect(
      state.inventories.map((i) => ({ name: i.name, type: i.type, template: i.template })),
    ).toEqual([
      { name: 'dns-default', type: 'tofu-workspace', template: 'DNS' },
      { name: 'vpc-default', type: 'terraform-workspace', template: 'VPC' },
      // Named by no template: a workspace of the project, to attach later.
      { name: 'vpc-staging', type: 'terraform-workspace', template: null },
      { name: 'web servers', type: 'static-yaml', template: null },
    ])
    expect(named(state.inventories, 'web servers')).toMatchObject({
      inventory: 'all:\n  hosts:\n    web1.example.test:\n',
      ssh_key: 'git-deploy',
      become_key: 'ansible-vault',
    })
    expect(named(state.templates, 'VPC')).toMatchObject({
      app: 'terraform',
      playbook: 'terraform/vpc',
      task_params: { auto_approve: false },
      inventory: 'vpc-default',
      repository: 'platform',
      environment: 'eu-west',
      view: 'Terraform',
    })
    expect(named(state.templates, 'DNS')).toMatchObject({
      app: 'tofu',
      inventory: 'dns-default',
      environment: null,
    })
    expect(named(state.templates, 'Configure web')).toMatchObject({
      app: 'ansible',
      arguments: '["--diff"]',
      allow_override_args_in_task: true,
      description: 'Configures the web servers',
      git_branch: 'main',
      inventory: 'web servers',
      repository: 'semaphore-demo',
      survey_vars: [
        {
          name: 'version',
          title: 'Version',
          required: true,
          type: '',
          description: 'Release to roll out',
          values: [],
        },
        {
          name: 'workers',
          title: 'Workers',
          required: false,
          type: 'int',
          description: '',
          values: [],
        },
        {
          name: 'size',
          title: 'Size',
          required: false,
          type: 'enum',
          description: '',
          values: [
            { name: 'Small', value: 's' },
            { name: 'Large', value: 'l' },
          ],
        },
        {
          name: 'api_token',
          title: 'API token',
          required: false,
          type: 'secret',
          description: '',
          values: [],
        },
      ],
      vaults: [
        { name: null, type: 'password', script: null, vault_key: 'ansible-vault' },
        { name: 'prod', type: 'script', script: 'scripts/vault-client.py', vault_key: null },
      ],
    })
    expect(state.commitChecks).toEqual([
      {
        template: 'Configure web',
        cron_format: '0 3 29 2 *',
        active: true,
        repository: 'semaphore-demo',
      },
    ])
    expect(state.schedules).toEqual([
      {
        name: 'Nightly VPC plan',
        cron_format: '30 2 29 2 *',
        active: true,
        template: 'VPC',
        repository: null,
        timezone: '',
        missed_run_policy: 'skip',
      },
      {
        name: 'Weekly web run',
        cron_format: '0 20 29 2 *',
        active: false,
        template: 'Configure web',
        repository: null,
        timezone: '',
        missed_run_policy: 'skip',
      },
    ])
    expect(state.integrations).toEqual([
      {
        name: 'Apply on merge',
        template: 'VPC',
        auth_method: 'hmac',
        auth_header: 'X-Hub-Signature-256',
        auth_secret: 'webhook-secret',
        searchable: true,
        debounce: false,
        task_params: { message: 'Started by a merge' },
        matchers: [
          {
            name: 'github event',
            match_type: 'header',
            method: 'contains',
            body_data_type: 'string',
            key: 'X-GitHub-Event',
            value: 'pull_request',
          },
          {
            name: 'merged',
            match_type: 'body',
            method: 'equals',
            body_data_type: 'json',
            key: 'action',
            value: 'closed',
          },
        ],
        values: [
          {
            name: 'delivery',
            value_source: 'header',
            body_data_type: 'string',
            key: 'X-GitHub-Delivery',
            variable: 'delivery_id',
          },
          {
            name: 'pr',
            value_source: 'body',
            body_data_type: 'json',
            key: 'number',
            variable: 'pr_number',
          },
        ],
        aliases: ['target-vpc-alias-1', 'target-vpc-alias-2'],
      },
      {
        name: 'Manual trigger',
        template: 'Configure web',
        auth_method: 'token',
        auth_header: 'X-Token',
        auth_secret: 'webhook-secret',
        searchable: false,
        debounce: false,
        task_params: null,
        matchers: [],
        values: [],
        aliases: [],
      },
    ])
    expect(state.projectAliases).toEqual(['target-project-alias'])
  })

  it('restores a newer file, listing exactly what Flagman could not map', async () => {
    const { restored, project, state } = await restore(sample('compatible-newer.json'))
    const ignored = 'not supported; ignored'
    expect(restored.restore_report).toEqual<RestoreReportItem[]>([
      {
        path: 'secret_storages',
        reason:
          'secret storages are not supported; fill in the secrets that keys and environments took from them by hand',
      },
      { path: 'views[Releases].hidden', reason: ignored },
      { path: 'views[Releases].type', reason: ignored },
      { path: 'views[Releases].sort_column', reason: ignored },
      { path: 'views[Releases].sort_reverse', reason: ignored },
      { path: 'templates[Deploy edge].allow_parallel_tasks', reason: ignored },
      { path: 'templates[Deploy edge].working_directory', reason: ignored },
      {
        path: 'templates[Deploy edge].survey_vars[notes].type',
        reason: 'type "text" is not supported; restored as a one-line string',
      },
      {
        path: 'templates[Deploy edge].survey_vars[notes].default_value',
        reason: 'default values of survey variables are not supported; ignored',
      },
      {
        path: 'templates[Stack].app',
        reason: `app "terragrunt" is not one of this server's apps; add it before running the template`,
      },
      {
        path: 'integrations[Release webhook].extract_values[branch].variable_type',
        reason:
          'extracted values only become variables of the task (extra and environment variables); task fields are not set from them',
      },
      {
        path: 'integrations[Release webhook].extract_values[build id]',
        reason: 'body type "xml" is not supported; skipped',
      },
      {
        path: 'schedules[Hourly edge deploy].task_params',
        reason: 'schedules carry no task parameters; ignored',
      },
      {
        path: 'schedules[Launch day]',
        reason: 'one-off schedules (run_at) are not supported; skipped',
      },
    ])
    expect(state.views).toEqual([
      { title: 'All', position: 0 },
      { title: 'Releases', position: 1 },
    ])
    // What Flagman has of the newer template fields is kept.
    expect(named(state.templates, 'Deploy edge')).toMatchObject({
      runner_tag: 'edge-runner',
      // The newer field of its own becomes Flagman's task parameter.
      task_params: { allow_override_branch_in_task: true },
      view: 'Releases',
      survey_vars: [
        {
          name: 'notes',
          title: 'Release notes',
          description: 'Several lines',
          type: '',
          required: false,
          values: [],
        },
        { name: 'region', title: 'Region', description: '', type: '', required: false, values: [] },
      ],
    })
    expect(named(state.templates, 'Stack')).toMatchObject({ app: 'terragrunt' })
    expect(state.schedules).toEqual([
      {
        name: 'Hourly edge deploy',
        cron_format: '15 4 29 2 *',
        active: true,
        template: 'Deploy edge',
        repository: null,
        timezone: '',
        missed_run_policy: 'skip',
      },
    ])
    expect(named(state.integrations, 'Release webhook').values.map((v) => v.name)).toEqual([
      'author',
      'branch',
    ])
    expect(await events(project)).toContain(
      'Project restored from a backup; 14 items could not be mapped',
    )
  })

  it('reports an empty list when everything maps, and an alias taken on this server', async () => {
    const minimal = { meta: { name: 'minimal' }, keys: [{ name: 'None', type: 'none' }] }
    const first = await restore(minimal)
    expect(first.restored.restore_report).toEqual([])
    expect(await events(first.project)).toContain('Project restored from a backup')

    const withAlias = { meta: { name: 'x' }, integration_aliases: ['shared-project-alias'] }
    expect((await restore(withAlias)).restored.restore_report).toEqual([])
    const again = await restore(withAlias)
    expect(again.restored.restore_report).toEqual([
      {
        path: 'integration_aliases[0]',
        reason:
          'the alias is in use on this server; a new one was made, so its webhook URL changed',
      },
    ])
    expect(again.state.projectAliases).toHaveLength(1)
    expect(again.state.projectAliases[0]).not.toBe('shared-project-alias')
  })

  it('gives back an identical project from a backup of a Flagman project', async () => {
    // A project of every kind of entity: the target sample, plus what only Flagman has.
    const { restored, project: source } = await restore(sample('compatible-target.json'))
    const templates = await source.list('/templates', Template)
    const vpc = named(templates, 'VPC')
    const web = named(templates, 'Configure web')
    const staging = named(await source.list('/inventory', Inventory), 'vpc-staging')
    expectNoContent(
      await source.request('POST', `/templates/${vpc.id}/inventory/${staging.id}/attach`),
    )
    const [platform] = (await source.list('/repositories', Repository)).filter(
      (r) => r.name === 'platform',
    )
    const [gitKey] = (await source.list('/keys', AccessKey)).filter((k) => k.name === 'git-deploy')
    await source.inventory('hosts in platform', gitKey!.id, {
      type: 'file',
      inventory: 'inventories/web.ini',
      repository_id: platform!.id,
    })
    await source.environment('containers', { image: ENVIRONMENT_IMAGES[0] })
    await source.key('deploy secret', {
      type: 'login_password',
      login_password: { login: 'ci', password: 'secret-of-the-source-31' },
    })
    expectNoContent(
      await source.request('PUT', `/templates/${web.id}`, {
        ...web,
        runner_tag: 'linux',
        suppress_success_alerts: true,
      }),
    )
    expectBody(
      await source.request('POST', '/schedules', {
        project_id: source.projectId,
        template_id: web.id,
        name: 'Berlin morning',
        cron_format: '0 6 29 2 *',
        timezone: 'Europe/Berlin',
        missed_run_policy: 'run_once',
      }),
      201,
      Schedule,
    )
    const debounced = expectBody(
      await source.request('POST', '/integrations', {
        project_id: source.projectId,
        name: 'Debounced',
        template_id: vpc.id,
        debounce: true,
      }),
      201,
      Integration,
    )
    expect(debounced.debounce).toBe(true)
    const before = await projectSnapshot(source)
    expect(named(before.inventories, 'vpc-staging').template).toBe('VPC')
    expect(named(before.inventories, 'hosts in platform').repository).toBe('platform')

    const backup = expectBody(
      await world.request('GET', `${source.base}/backup`, { as: owner.as }),
      200,
      ProjectBackup,
    )
    expect(JSON.stringify(backup)).not.toContain('secret-of-the-source-31')
    // The aliases are unique on the server: free them, as when restoring elsewhere.
    expectNoContent(await world.request('DELETE', source.base, { as: owner.as }))
    const copy = await restore(backup as unknown as BackupFile, restored.name)
    expect(copy.restored.restore_report).toEqual([])
    expect(copy.restored.id).not.toBe(source.projectId)
    expect(copy.state).toEqual<ProjectSnapshot>(before)
  })
})
