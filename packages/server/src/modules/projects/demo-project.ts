import type { Database, Dialect } from '@flagman/db'
import { insertReturningId } from '@flagman/db'
import type { Kysely } from 'kysely'

/** Public example repository the demo templates come from (the compatible product's demo). */
export const DEMO_REPOSITORY_URL = 'https://github.com/semaphoreui/semaphore-demo.git'

interface DemoContext {
  trx: Kysely<Database>
  dialect: Dialect
  projectId: number
  created: string
  /** The project's "None" key and "Empty" environment. */
  noneKeyId: number
  emptyEnvironmentId: number
}

/**
 * Fills a new project with example resources: a vault key (without its password, which the
 * user sets), the demo repository, three inventories and four templates forming a build
 * and deploy pipeline.
 */
export async function addDemoResources(ctx: DemoContext): Promise<void> {
  const { trx, projectId, created } = ctx
  const db = { kysely: trx, dialect: ctx.dialect }
  const vaultKeyId = await insertReturningId(db, 'access_key', {
    project_id: projectId,
    name: 'Vault Password',
    type: 'login_password',
    secret: null,
    created,
  })
  const repositoryId = await insertReturningId(db, 'repository', {
    project_id: projectId,
    name: 'Demo',
    git_url: DEMO_REPOSITORY_URL,
    git_branch: 'main',
    ssh_key_id: ctx.noneKeyId,
    created,
  })
  const inventory = (name: string, type: 'static' | 'file', content: string) =>
    insertReturningId(db, 'inventory', {
      project_id: projectId,
      name,
      type,
      inventory: content,
      ssh_key_id: ctx.noneKeyId,
      become_key_id: null,
      repository_id: null,
      template_id: null,
      created,
    })
  const buildInventory = await inventory(
    'Build',
    'static',
    '[builder]\nlocalhost ansible_connection=local',
  )
  const devInventory = await inventory('Dev', 'file', 'invs/dev/hosts')
  const prodInventory = await inventory('Prod', 'file', 'invs/prod/hosts')

  const template = (values: {
    name: string
    playbook: string
    inventoryId: number
    type?: '' | 'build' | 'deploy'
    startVersion?: string
    buildTemplateId?: number
    autorun?: boolean
  }) =>
    insertReturningId(db, 'template', {
      project_id: projectId,
      name: values.name,
      description: null,
      type: values.type ?? '',
      app: 'ansible',
      playbook: values.playbook,
      arguments: null,
      inventory_id: values.inventoryId,
      repository_id: repositoryId,
      environment_id: ctx.emptyEnvironmentId,
      view_id: null,
      build_template_id: values.buildTemplateId ?? null,
      start_version: values.startVersion ?? null,
      autorun: values.autorun ? 1 : 0,
      git_branch: null,
      survey_vars: null,
      task_params: null,
      created,
    })
  await template({ name: 'Ping Site', playbook: 'ping.yml', inventoryId: prodInventory })
  const buildId = await template({
    name: 'Build',
    playbook: 'build.yml',
    inventoryId: buildInventory,
    type: 'build',
    startVersion: '1.0.0',
  })
  const deploys = [
    await template({
      name: 'Deploy to Dev',
      playbook: 'deploy.yml',
      inventoryId: devInventory,
      type: 'deploy',
      buildTemplateId: buildId,
      autorun: true,
    }),
    await template({
      name: 'Deploy to Production',
      playbook: 'deploy.yml',
      inventoryId: prodInventory,
      type: 'deploy',
      buildTemplateId: buildId,
    }),
  ]
  for (const templateId of deploys) {
    await trx
      .insertInto('template_vault')
      .values({
        project_id: projectId,
        template_id: templateId,
        name: null,
        type: 'password',
        vault_key_id: vaultKeyId,
        script: null,
      })
      .execute()
  }
}
