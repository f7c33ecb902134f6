import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  ApiError,
  createProject,
  createUser,
  environmentRoutes,
  getProjectBackup,
  inventoryRoutes,
  keyRoutes,
  listProjects,
  repositoryRoutes,
  restoreProject,
  viewRoutes,
  type ApiClient,
  type ProjectBackupInput,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { startTestServer, type TestServer } from '../support/server.js'

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
