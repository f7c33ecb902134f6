import type {
  App,
  CreateTemplateBody,
  ListTemplatesQuery,
  Refs,
  Schedule,
  Template,
  UpdateTemplateBody,
} from '@flagman/contract'
import {
  appFields,
  argumentsProblem,
  HOST_INVENTORY_TYPES,
  isSafeInventoryPath,
  surveyVarProblem,
  vaultsProblem,
} from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { Kysely } from 'kysely'
import type { z } from 'zod'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError } from '../../platform/errors.js'
import { findApp } from '../apps/index.js'
import { insertEvent } from '../events/index.js'
import { assertInProject } from '../project-scope.js'
import { assertUnused } from '../references/index.js'
import {
  findCommitCheckSchedules,
  findTemplateRow,
  findTemplates,
  toTemplates,
  type TemplateRow,
} from './templates.repository.js'

type CreateInput = z.output<typeof CreateTemplateBody>
type UpdateInput = z.output<typeof UpdateTemplateBody>
type ListQuery = z.output<typeof ListTemplatesQuery>
type Trx = Kysely<Database>

/** Inventory types each app can use; other apps take none. */
export const INVENTORY_TYPES_BY_APP: Record<string, readonly string[]> = {
  ansible: HOST_INVENTORY_TYPES,
  terraform: ['terraform-workspace'],
  tofu: ['tofu-workspace'],
}

export function isWorkspaceApp(app: string): app is 'terraform' | 'tofu' {
  return app === 'terraform' || app === 'tofu'
}

/**
 * Every rule of the template form, enforced here too; returns the columns to store.
 * `current` is the stored template on update, null on create.
 */
async function validate(
  app: App | null,
  trx: Trx,
  actor: Actor,
  projectId: number,
  input: CreateInput,
  current: TemplateRow | null,
) {
  const selfId = current?.id ?? null
  if (!app) throw new BadRequestError(`Invalid app id: ${input.app}`)
  // A template made before its app was deactivated stays editable; switching to it is not.
  if (!app.active && !actor.admin && current?.app !== input.app) {
    throw new BadRequestError(
      `The app ${app.title} is not active; ask an administrator to activate it`,
    )
  }
  const fields = appFields(input.app)
  let playbook = input.playbook
  if (isWorkspaceApp(input.app)) playbook = playbook.replace(/^\/+/, '')
  if (fields.playbook === 'required' && playbook === '') {
    throw new BadRequestError('template playbook can not be empty')
  }
  if (playbook !== '' && !isSafeInventoryPath(playbook)) {
    throw new BadRequestError(
      'template playbook must be a path inside the repository, such as site.yml',
    )
  }
  // Stored for every app, whether or not the console shows the field for it: what a client
  // sets is what it reads back, and references and deletion rules follow the stored value.
  const inventoryId = input.inventory_id ?? null
  if (fields.inventory === 'required' && inventoryId === null) {
    throw new BadRequestError('template inventory can not be empty')
  }
  if (fields.repository === 'required' && !input.repository_id) {
    throw new BadRequestError('template repository can not be empty')
  }
  if (fields.environment === 'required' && !input.environment_id) {
    throw new BadRequestError('template environment can not be empty')
  }
  const argsProblem = argumentsProblem(input.arguments)
  if (argsProblem) throw new BadRequestError(argsProblem)

  const type = input.type
  const startVersion = type === 'build' ? (input.start_version ?? '') : ''
  if (type === 'build' && startVersion === '') {
    throw new BadRequestError('A build template needs a start version, for example 0.0.0')
  }
  if (current?.type === 'build' && type !== 'build') {
    const deploy = await trx
      .selectFrom('template')
      .select('name')
      .where('project_id', '=', projectId)
      .where('build_template_id', '=', current.id)
      .executeTakeFirst()
    if (deploy) {
      throw new BadRequestError(
        `The template must stay a build template while the deploy template ${deploy.name} uses it`,
      )
    }
  }
  const buildTemplateId = type === 'deploy' ? (input.build_template_id ?? null) : null
  if (type === 'deploy') {
    if (buildTemplateId === null)
      throw new BadRequestError('A deploy template needs a build template')
    const build = await findTemplateRow(trx, projectId, buildTemplateId)
    if (!build) throw new NotFoundError('Build template')
    if (build.type !== 'build' || build.id === selfId) {
      throw new BadRequestError('The build template of a deploy template must be a build template')
    }
  }

  const surveyVars = input.survey_vars ?? []
  const surveyNames = new Set<string>()
  for (const variable of surveyVars) {
    const problem = surveyVarProblem(variable)
    if (problem) throw new BadRequestError(`${variable.title}: ${problem}`)
    if (surveyNames.has(variable.name)) {
      throw new BadRequestError(`Survey variable names must be unique: ${variable.name}`)
    }
    surveyNames.add(variable.name)
  }

  const vaults = input.vaults ?? []
  if (vaults.length > 0 && !fields.vaults) {
    throw new BadRequestError('Vaults are used by Ansible templates only')
  }
  const vaultProblem = vaultsProblem(vaults)
  if (vaultProblem) throw new BadRequestError(vaultProblem)
  for (const vault of vaults) {
    if (vault.type !== 'password' || !vault.vault_key_id) continue
    const key = await trx
      .selectFrom('access_key')
      .select(['type', 'owner'])
      .where('project_id', '=', projectId)
      .where('id', '=', vault.vault_key_id)
      .executeTakeFirst()
    if (!key || key.owner !== '') throw new NotFoundError('Vault key')
    if (key.type !== 'login_password') {
      throw new BadRequestError('A vault password key must be a login with password key')
    }
  }

  if (inventoryId !== null) {
    const inventory = await trx
      .selectFrom('inventory')
      .select(['type', 'template_id'])
      .where('project_id', '=', projectId)
      .where('id', '=', inventoryId)
      .executeTakeFirst()
    if (!inventory) throw new NotFoundError('Inventory')
    const allowed = Object.hasOwn(INVENTORY_TYPES_BY_APP, input.app)
      ? INVENTORY_TYPES_BY_APP[input.app]
      : undefined
    if (allowed && !allowed.includes(inventory.type)) {
      throw new BadRequestError('Inventory type is not supported for this template')
    }
    if (inventory.template_id !== null && inventory.template_id !== selfId) {
      throw new BadRequestError('Inventory is already attached to another template')
    }
  }
  if (input.repository_id)
    await assertInProject(trx, 'repository', projectId, input.repository_id, 'Repository')
  if (input.environment_id) {
    await assertInProject(trx, 'environment', projectId, input.environment_id, 'Environment')
  }
  if (input.view_id) await assertInProject(trx, 'view', projectId, input.view_id, 'View')

  return {
    columns: {
      name: input.name,
      description: input.description ?? null,
      type,
      app: input.app,
      playbook,
      arguments: input.arguments?.trim() ? input.arguments : null,
      allow_override_args_in_task: flag(input.allow_override_args_in_task),
      inventory_id: inventoryId,
      repository_id: input.repository_id ?? null,
      environment_id: input.environment_id ?? null,
      view_id: input.view_id ?? null,
      build_template_id: buildTemplateId,
      start_version: startVersion || null,
      // Only deploy templates run automatically (they alone have a build template), but the
      // flag is kept whatever the type, so switching types back and forth loses nothing.
      autorun: flag(input.autorun),
      git_branch: input.git_branch || null,
      // An empty list stays an empty list; only a missing one is null.
      survey_vars: input.survey_vars ? JSON.stringify(surveyVars) : null,
      suppress_success_alerts: flag(input.suppress_success_alerts),
      task_params: input.task_params ? JSON.stringify(input.task_params) : null,
      runner_tag: input.runner_tag ?? null,
    },
    vaults,
  }
}

/**
 * Replaces the template's vaults by the given list: a vault sent with the id of one of
 * them is updated in place, others are added, and the ones not sent are removed.
 */
async function writeVaults(
  trx: Trx,
  projectId: number,
  templateId: number,
  vaults: NonNullable<CreateInput['vaults']>,
): Promise<void> {
  const existing = new Set(
    (
      await trx
        .selectFrom('template_vault')
        .select('id')
        .where('template_id', '=', templateId)
        .execute()
    ).map((row) => row.id),
  )
  const kept = new Set<number>()
  for (const vault of vaults) {
    const values = {
      name: vault.name,
      type: vault.type,
      vault_key_id: vault.type === 'password' ? (vault.vault_key_id ?? null) : null,
      script: vault.type === 'script' ? vault.script : null,
    }
    if (vault.id && existing.has(vault.id) && !kept.has(vault.id)) {
      kept.add(vault.id)
      await trx.updateTable('template_vault').set(values).where('id', '=', vault.id).execute()
    } else {
      await trx
        .insertInto('template_vault')
        .values({ project_id: projectId, template_id: templateId, ...values })
        .execute()
    }
  }
  const removed = [...existing].filter((id) => !kept.has(id))
  if (removed.length > 0) {
    await trx.deleteFrom('template_vault').where('id', 'in', removed).execute()
  }
}

/**
 * Terraform and OpenTofu templates own a workspace inventory: the chosen one is attached;
 * without one they keep a workspace they already own (preferably their current one), or
 * a "default" one is created.
 */
async function attachWorkspace(
  db: Db,
  trx: Trx,
  projectId: number,
  templateId: number,
  row: { app: string; inventory_id: number | null },
  currentInventoryId: number | null = null,
) {
  if (!isWorkspaceApp(row.app)) return
  if (row.inventory_id !== null) {
    await trx
      .updateTable('inventory')
      .set({ template_id: templateId })
      .where('id', '=', row.inventory_id)
      .execute()
    return
  }
  const type = `${row.app}-workspace`
  const owned = (
    await trx
      .selectFrom('inventory')
      .select('id')
      .where('project_id', '=', projectId)
      .where('template_id', '=', templateId)
      .where('type', '=', type)
      .orderBy('id')
      .execute()
  ).map((inventory) => inventory.id)
  const kept = owned.includes(currentInventoryId ?? 0) ? currentInventoryId : owned[0]
  const inventoryId =
    kept ??
    (await insertReturningId({ kysely: trx, dialect: db.dialect }, 'inventory', {
      project_id: projectId,
      name: 'default',
      type,
      inventory: 'default',
      template_id: templateId,
      created: nowIso(),
    }))
  await trx
    .updateTable('template')
    .set({ inventory_id: inventoryId })
    .where('id', '=', templateId)
    .execute()
}

async function requireRow(trx: Trx, projectId: number, id: number): Promise<TemplateRow> {
  const row = await findTemplateRow(trx, projectId, id)
  if (!row) throw new NotFoundError('Template')
  return row
}

export async function listTemplates(
  db: Db,
  projectId: number,
  query: ListQuery,
  viewId?: number,
): Promise<Template[]> {
  if (viewId !== undefined) await assertInProject(db.kysely, 'view', projectId, viewId, 'View')
  const rows = await findTemplates(db, projectId, { ...query, viewId })
  return toTemplates(db.kysely, rows)
}

export async function getTemplate(db: Db, projectId: number, id: number): Promise<Template> {
  const [template] = await toTemplates(db.kysely, [await requireRow(db.kysely, projectId, id)])
  return template!
}

export async function createTemplate(
  db: Db,
  actor: Actor,
  projectId: number,
  input: CreateInput,
): Promise<Template> {
  if (input.project_id !== undefined && input.project_id !== projectId) {
    throw new BadRequestError('Project ID in body and URL must be the same')
  }
  // Looked up before the transaction: SQLite has one connection, which the transaction holds.
  const app = await findApp(db, input.app)
  return db.kysely.transaction().execute(async (trx) => {
    const { columns, vaults } = await validate(app, trx, actor, projectId, input, null)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'template', {
      project_id: projectId,
      ...columns,
      created: nowIso(),
    })
    await writeVaults(trx, projectId, id, vaults)
    await attachWorkspace(db, trx, projectId, id, columns)
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'template',
      objectId: id,
      description: `Template ID ${id} created`,
    })
    const [template] = await toTemplates(trx, [await requireRow(trx, projectId, id)])
    return template!
  })
}

export async function updateTemplate(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
  input: UpdateInput,
): Promise<void> {
  if (input.id !== id) throw new BadRequestError('template id in URL and in body must be the same')
  if (input.project_id !== undefined && input.project_id !== projectId) {
    throw new BadRequestError('You can not move template to other project')
  }
  const app = await findApp(db, input.app)
  await db.kysely.transaction().execute(async (trx) => {
    const current = await requireRow(trx, projectId, id)
    const { columns, vaults } = await validate(app, trx, actor, projectId, input, current)
    if (current.app !== columns.app && isWorkspaceApp(current.app)) {
      await trx
        .updateTable('inventory')
        .set({ template_id: null })
        .where('template_id', '=', id)
        .execute()
    }
    await trx.updateTable('template').set(columns).where('id', '=', id).execute()
    await writeVaults(trx, projectId, id, vaults)
    await attachWorkspace(db, trx, projectId, id, columns, current.inventory_id)
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'template',
      objectId: id,
      description: `Template ID ${id} updated`,
    })
  })
}

/** Deploy templates built from this one and integrations that run it. */
async function findTemplateRefs(trx: Trx, projectId: number, id: number): Promise<Refs> {
  const templates = await trx
    .selectFrom('template')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('build_template_id', '=', id)
    .execute()
  const integrations = await trx
    .selectFrom('integration')
    .select(['id', 'name'])
    .where('project_id', '=', projectId)
    .where('template_id', '=', id)
    .execute()
  return { templates, integrations, inventories: [], repositories: [], schedules: [] }
}

export async function templateRefs(db: Db, projectId: number, id: number): Promise<Refs> {
  await requireRow(db.kysely, projectId, id)
  return findTemplateRefs(db.kysely, projectId, id)
}

export async function templateSchedules(
  db: Db,
  projectId: number,
  id: number,
): Promise<Schedule[]> {
  await requireRow(db.kysely, projectId, id)
  return findCommitCheckSchedules(db, projectId, id)
}

/**
 * Deletes a template with its tasks, their logs, schedules and vaults. Refused while deploy
 * templates or integrations still use it.
 */
export async function deleteTemplate(
  db: Db,
  actor: Actor,
  projectId: number,
  id: number,
): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await requireRow(trx, projectId, id)
    assertUnused(await findTemplateRefs(trx, projectId, id), 'Template')
    const taskIds = trx.selectFrom('task').select('id').where('template_id', '=', id)
    await trx.deleteFrom('task_output').where('task_id', 'in', taskIds).execute()
    await trx.deleteFrom('task').where('template_id', '=', id).execute()
    await trx.deleteFrom('schedule').where('template_id', '=', id).execute()
    await trx.deleteFrom('template_vault').where('template_id', '=', id).execute()
    await trx
      .updateTable('inventory')
      .set({ template_id: null })
      .where('template_id', '=', id)
      .execute()
    await trx.deleteFrom('template').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'template',
      objectId: id,
      description: `Template ID ${id} deleted`,
    })
  })
}
