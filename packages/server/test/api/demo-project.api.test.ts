import {
  createProject,
  inventoryRoutes,
  keyRoutes,
  repositoryRoutes,
  templateRoutes,
  type ApiClient,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('demo project on %s', (dialect) => {
  let server: TestServer
  let admin: ApiClient

  beforeAll(async () => {
    server = await startTestServer(dialect)
    admin = await server.admin()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('creates the example pipeline with its resources', async () => {
    const project = await admin.call(createProject, { body: { name: 'Demo', demo: true } })
    const params = { project_id: project.id }

    const keys = await admin.call(keyRoutes.list, { params })
    expect(keys.map((k) => [k.name, k.type, k.empty ?? false])).toEqual([
      ['None', 'none', true],
      ['Vault Password', 'login_password', true],
    ])
    const repositories = await admin.call(repositoryRoutes.list, { params })
    expect(repositories).toEqual([
      expect.objectContaining({ name: 'Demo', git_branch: 'main', ssh_key_id: keys[0]!.id }),
    ])
    const inventories = await admin.call(inventoryRoutes.list, { params, query: {} })
    expect(inventories.map((i) => [i.name, i.type, i.inventory])).toEqual([
      ['Build', 'static', '[builder]\nlocalhost ansible_connection=local'],
      ['Dev', 'file', 'invs/dev/hosts'],
      ['Prod', 'file', 'invs/prod/hosts'],
    ])

    const templates = await admin.call(templateRoutes.list, { params, query: {} })
    const byName = Object.fromEntries(templates.map((t) => [t.name, t]))
    expect(Object.keys(byName).sort()).toEqual([
      'Build',
      'Deploy to Dev',
      'Deploy to Production',
      'Ping Site',
    ])
    expect(byName['Build']).toMatchObject({ type: 'build', start_version: '1.0.0', app: 'ansible' })
    const vaultKey = keys[1]!.id
    for (const name of ['Deploy to Dev', 'Deploy to Production']) {
      expect(byName[name]).toMatchObject({
        type: 'deploy',
        build_template_id: byName['Build']!.id,
        vaults: [expect.objectContaining({ type: 'password', vault_key_id: vaultKey, name: null })],
      })
    }
    expect(byName['Deploy to Dev']!.autorun).toBe(true)
    expect(byName['Deploy to Production']!.autorun).toBe(false)

    // The demo templates satisfy the same rules as templates saved through the API.
    const ping = byName['Ping Site']!
    await admin.call(templateRoutes.update, {
      params: { project_id: project.id, template_id: ping.id },
      body: {
        id: ping.id,
        name: ping.name,
        app: ping.app,
        playbook: ping.playbook,
        inventory_id: ping.inventory_id,
        repository_id: ping.repository_id,
        environment_id: ping.environment_id,
      },
    })
  })
})
