import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ApiError,
  Project,
  ProjectBackup,
  Schedule,
  Template,
  createProject,
  createUser,
  environmentRoutes,
  getProjectBackup,
  integrationRoutes,
  inventoryRoutes,
  keyRoutes,
  listProjects,
  repositoryRoutes,
  restoreProject,
  scheduleRoutes,
  viewRoutes,
  type ApiClient,
  type ProjectBackupInput,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody } from '../support/http.js'
import { projectSnapshot } from '../support/project-snapshot.js'
import { ProjectResources } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { DEFAULT_APPS, ProjectTemplates, setAppsActive } from '../support/templates.js'

/**
 * Cron expressions that do not come due while the tests run (February 29th), so the server's
 * clock never starts a task or reads a repository of these projects on its own.
 */
const LEAP_DAY = '30 2 29 2 *'
const LEAP_DAY_EVENING = '0 20 29 2 *'

function sshKey(): string {
  const dir = mkdtempSync(join(tmpdir(), 'flagman-key-'))
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(dir, 'id')])
  return readFileSync(join(dir, 'id'), 'utf8')
}

async function status(promise: Promise<unknown>): Promise<number> {
  try {
    await promise
    return 200
  } catch (error) {
    if (error instanceof ApiError) return error.status
    throw error
  }
}

describe.each(dialects())('project backup and restore on %s', (dialect) => {
  let server: TestServer
  let admin: ApiClient
  let projectId: number
  const privateKey = sshKey()
  const secretPassword = 'backup-secret-password-41'

  beforeAll(async () => {
    server = await startTestServer(dialect)
    admin = await server.admin()
    const project = await admin.call(createProject, {
      body: { name: 'Source', alert: true, alert_chat: '-100', max_parallel_tasks: 3 },
    })
    projectId = project.id
    const params = { project_id: projectId }
    const deploy = await admin.call(keyRoutes.create, {
      params,
      body: {
        name: 'deploy',
        type: 'ssh',
        project_id: projectId,
        ssh: { login: 'git', private_key: privateKey },
      },
    })
    const vault = await admin.call(keyRoutes.create, {
      params,
      body: {
        name: 'vault',
        type: 'login_password',
        project_id: projectId,
        login_password: { login: 'x', password: secretPassword },
      },
    })
    await admin.call(repositoryRoutes.create, {
      params,
      body: {
        name: 'app',
        project_id: projectId,
        git_url: 'https://example.test/app.git',
        git_branch: 'main',
        ssh_key_id: deploy.id,
      },
    })
    await admin.call(inventoryRoutes.create, {
      params,
      body: {
        name: 'hosts',
        project_id: projectId,
        type: 'static',
        inventory: '[web]\nlocalhost',
        ssh_key_id: deploy.id,
        become_key_id: vault.id,
      },
    })
    await admin.call(environmentRoutes.create, {
      params,
      body: {
        name: 'prod',
        project_id: projectId,
        json: '{"region":"eu"}',
        env: '{"A":"1"}',
        secrets: [{ name: 'TOKEN', type: 'env', secret: secretPassword, operation: 'create' }],
      },
    })
    await admin.call(viewRoutes.create, {
      params,
      body: { title: 'Deploys', position: 2, project_id: projectId },
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('exports entities by name and without secrets', async () => {
    const backup = await admin.call(getProjectBackup, { params: { project_id: projectId } })
    expect(backup.meta).toEqual({
      name: 'Source',
      alert: true,
      alert_chat: '-100',
      max_parallel_tasks: 3,
      type: '',
    })
    expect(backup.keys.map((k) => k.name).sort()).toEqual(['None', 'deploy', 'vault'])
    expect(backup.repositories).toEqual([
      {
        name: 'app',
        git_url: 'https://example.test/app.git',
        git_branch: 'main',
        ssh_key: 'deploy',
      },
    ])
    expect(backup.inventories).toEqual([
      {
        name: 'hosts',
        inventory: '[web]\nlocalhost',
        type: 'static',
        ssh_key: 'deploy',
        become_key: 'vault',
      },
    ])
    expect(backup.views).toEqual([{ title: 'Deploys', position: 2 }])
    const text = JSON.stringify(backup)
    expect(text).not.toContain(secretPassword)
    expect(text).not.toContain(privateKey.split('\n')[1])
    expect(text).not.toMatch(/"id"|project_id/)
  })

  it('restores a backup as a new project owned by the caller, keys marked empty', async () => {
    const backup = await admin.call(getProjectBackup, { params: { project_id: projectId } })
    const restored = await admin.call(restoreProject, {
      body: { ...backup, meta: { ...backup.meta, name: 'Copy' } },
    })
    expect(restored).toMatchObject({ name: 'Copy', alert: true, max_parallel_tasks: 3 })
    expect(restored.id).not.toBe(projectId)
    const params = { project_id: restored.id }
    const keys = await admin.call(keyRoutes.list, { params })
    expect(keys.map((k) => [k.name, k.empty ?? false]).sort()).toEqual([
      ['None', true],
      ['deploy', true],
      ['vault', true],
    ])
    const repos = await admin.call(repositoryRoutes.list, { params })
    const deployKey = keys.find((k) => k.name === 'deploy')
    expect(repos).toEqual([
      expect.objectContaining({ name: 'app', git_branch: 'main', ssh_key_id: deployKey?.id }),
    ])
    const again = await admin.call(getProjectBackup, { params })
    expect({ ...again, meta: { ...again.meta, name: 'Source' } }).toEqual(backup)
  })

  it('restores templates of every kind and their schedules, each reference resolved anew', async () => {
    const world = new World(server)
    const owner = await world.admin()
    await setAppsActive(world, DEFAULT_APPS, true)
    const source = new ProjectResources(
      world.request.bind(world),
      owner.as,
      (await world.newProject(owner, unique('full'))).id,
    )
    // A key nothing refers to comes along too.
    await source.key('spare')
    const deployKey = await source.sshKey('deploy key', privateKey)
    const vaultKey = await source.loginPasswordKey('vault password', secretPassword)
    const repo = await source.repository('infra', deployKey.id, {
      git_url: 'https://example.test/infra.git',
      git_branch: 'main',
    })
    const hosts = await source.inventory('hosts', deployKey.id, { become_key_id: vaultKey.id })
    const staging = await source.environment('staging', {
      json: '{"tier":"staging"}',
      env: '{"REGION":"eu"}',
    })
    const nightly = await source.view('Nightly', 1)
    const releases = await source.view('Releases', 2)
    const t = new ProjectTemplates(source, { repository_id: repo.id, inventory_id: hosts.id })
    const playbook = await t.create({
      name: 'site',
      app: 'ansible',
      playbook: 'site.yml',
      arguments: '["--diff"]',
      allow_override_args_in_task: true,
      description: 'Configures the web servers',
      environment_id: staging.id,
      view_id: nightly.id,
      git_branch: 'release',
      suppress_success_alerts: true,
      survey_vars: [
        { name: 'version', title: 'Version', required: true, description: 'What to roll out' },
        {
          name: 'size',
          title: 'Size',
          type: 'enum',
          values: [
            { name: 'Small', value: 's' },
            { name: 'Large', value: 'l' },
          ],
        },
        { name: 'token', title: 'Token', type: 'secret' },
      ],
      vaults: [
        { type: 'password', vault_key_id: vaultKey.id },
        { name: 'prod', type: 'script', script: 'scripts/vault-client.py' },
      ],
    })
    const network = await t.create({ name: 'network', app: 'terraform', playbook: 'network' })
    expect(network.inventory_id).not.toBeNull()
    const cleanup = await t.create({
      name: 'cleanup',
      app: 'bash',
      playbook: 'cleanup.sh',
      environment_id: staging.id,
    })
    const build = await t.create({
      name: 'build',
      app: 'bash',
      playbook: 'build.sh',
      type: 'build',
      start_version: '1.0.0',
      view_id: releases.id,
    })
    await t.create({
      name: 'deploy',
      app: 'bash',
      playbook: 'deploy.sh',
      type: 'deploy',
      build_template_id: build.id,
      autorun: true,
      view_id: releases.id,
    })
    const schedule = async (fields: Record<string, unknown>) =>
      expectBody(
        await source.request('POST', '/schedules', { project_id: source.projectId, ...fields }),
        201,
        Schedule,
      )
    await schedule({ name: 'nightly cleanup', template_id: cleanup.id, cron_format: LEAP_DAY })
    await schedule({
      name: 'paused site run',
      template_id: playbook.id,
      cron_format: LEAP_DAY_EVENING,
      active: false,
    })
    await schedule({
      name: 'on new commits',
      template_id: build.id,
      cron_format: LEAP_DAY,
      repository_id: repo.id,
    })

    const before = await projectSnapshot(source)
    // The project holds what the backup is meant to carry, so the comparison below is not
    // a comparison of empty lists.
    expect(before.templates.map((tpl) => tpl.name)).toEqual([
      'build',
      'cleanup',
      'deploy',
      'network',
      'site',
    ])
    expect(before.schedules).toHaveLength(2)
    expect(before.commitChecks).toEqual([
      { template: 'build', cron_format: LEAP_DAY, active: true, repository: 'infra' },
    ])

    const backup = expectBody(
      await world.request('GET', `${source.base}/backup`, { as: owner.as }),
      200,
      ProjectBackup,
    )
    const restored = expectBody(
      await world.request('POST', '/api/projects/restore', {
        as: owner.as,
        json: { ...backup, meta: { ...backup.meta, name: unique('restored') } },
      }),
      200,
      Project,
    )
    expect(restored.id).not.toBe(source.projectId)
    const copy = new ProjectResources(world.request.bind(world), owner.as, restored.id)
    const after = await projectSnapshot(copy)
    // The copy was given a name of its own; everything else is the same.
    expect(after.project.name).toBe(restored.name)
    expect({ ...after, project: { ...after.project, name: before.project.name } }).toEqual(before)

    // Nothing of the copy points into the original project.
    const originalIds = new Set((await source.list('/templates', Template)).map((tpl) => tpl.id))
    for (const tpl of await copy.list('/templates', Template)) {
      expect(tpl.project_id).toBe(restored.id)
      expect(originalIds.has(tpl.id)).toBe(false)
    }
    // A backup of the copy is the same file again.
    const again = expectBody(
      await world.request('GET', `${copy.base}/backup`, { as: owner.as }),
      200,
      ProjectBackup,
    )
    expect({ ...again, meta: backup.meta }).toEqual(backup)
  })

  it('restores a file from before schedule time zones, catch-up policies and debounce with their defaults', async () => {
    const older: ProjectBackupInput = {
      meta: { name: unique('older') },
      keys: [{ name: 'none', type: 'none' }],
      repositories: [{ name: 'r', git_url: '/srv/r', ssh_key: 'none' }],
      templates: [{ name: 't', app: 'bash', playbook: 'run.sh', repository: 'r' }],
      integrations: [{ name: 'hook', template: 't' }],
      schedules: [{ name: 'nightly', cron_format: LEAP_DAY, active: true, template: 't' }],
    }
    const restored = await admin.call(restoreProject, { body: older })
    const params = { project_id: restored.id }
    expect(await admin.call(scheduleRoutes.list, { params })).toEqual([
      expect.objectContaining({
        name: 'nightly',
        cron_format: LEAP_DAY,
        active: true,
        timezone: '',
        missed_run_policy: 'skip',
      }),
    ])
    expect(await admin.call(integrationRoutes.list, { params })).toEqual([
      expect.objectContaining({ name: 'hook', debounce: false }),
    ])
  })

  it('carries a schedule time zone and catch-up policy through backup and restore', async () => {
    const file: ProjectBackupInput = {
      meta: { name: unique('zoned') },
      keys: [{ name: 'none', type: 'none' }],
      repositories: [{ name: 'r', git_url: '/srv/r', ssh_key: 'none' }],
      templates: [{ name: 't', app: 'bash', playbook: 'run.sh', repository: 'r' }],
      schedules: [
        {
          name: 'berlin',
          cron_format: '0 6 * * *',
          active: true,
          template: 't',
          timezone: 'Europe/Berlin',
          missed_run_policy: 'run_once',
        },
      ],
    }
    const restored = await admin.call(restoreProject, { body: file })
    const params = { project_id: restored.id }
    expect(await admin.call(scheduleRoutes.list, { params })).toEqual([
      expect.objectContaining({ timezone: 'Europe/Berlin', missed_run_policy: 'run_once' }),
    ])
    const backup = await admin.call(getProjectBackup, { params: { project_id: restored.id } })
    expect(backup.schedules).toEqual([
      expect.objectContaining({ timezone: 'Europe/Berlin', missed_run_policy: 'run_once' }),
    ])

    const before = await admin.call(listProjects)
    for (const schedule of [
      { ...file.schedules![0]!, timezone: 'Mars/Olympus' },
      { ...file.schedules![0]!, missed_run_policy: 'later' as 'skip' },
    ]) {
      const body = { ...file, meta: { name: unique('zoned') }, schedules: [schedule] }
      expect(await status(admin.call(restoreProject, { body }))).toBe(400)
    }
    expect(await admin.call(listProjects)).toHaveLength(before.length)
  })

  it('refuses a file that does not hold together, writing nothing', async () => {
    const before = await admin.call(listProjects)
    const broken: ProjectBackupInput = {
      meta: { name: 'Broken' },
      keys: [{ name: 'k', type: 'ssh' }],
      repositories: [{ name: 'r', git_url: '/srv/r', ssh_key: 'missing' }],
    }
    const error = await admin.call(restoreProject, { body: broken }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).status).toBe(400)
    expect((error as ApiError).error).toMatch(/repository "r" uses a key "missing"/)
    expect(
      await status(
        admin.call(restoreProject, { body: { meta: { name: '' } } as ProjectBackupInput }),
      ),
    ).toBe(400)
    expect(await admin.call(listProjects)).toEqual(before)
  })

  it('lets only project creators restore, and members read backups', async () => {
    const anonymous = await status(
      server.anonymous.call(getProjectBackup, { params: { project_id: projectId } }),
    )
    expect(anonymous).toBe(401)
    await admin.call(createUser, {
      body: {
        username: 'plain',
        name: 'Plain',
        email: 'plain@example.test',
        password: 'pw-plain-1',
      },
    })
    const plain = await server.signIn('plain', 'pw-plain-1')
    const backup = await admin.call(getProjectBackup, { params: { project_id: projectId } })
    expect(await status(plain.call(restoreProject, { body: backup }))).toBe(401)
    expect(await status(plain.call(getProjectBackup, { params: { project_id: projectId } }))).toBe(
      404,
    )
  })
})
