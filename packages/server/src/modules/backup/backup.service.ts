import { randomBytes } from 'node:crypto'
import type { ProjectBackup } from '@flagman/contract'
import { withoutUrlPassword } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { NotFoundError } from '../../platform/errors.js'

/** Drops null and undefined fields: backup files omit them. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as T
}

/** Backups refer by name, so names must be unique per kind; later duplicates get a suffix. */
function uniqueNames<T>(
  rows: T[],
  get: (row: T) => string,
  set: (row: T, name: string) => void,
): void {
  const seen = new Set<string>()
  for (const row of rows) {
    let name = get(row)
    while (seen.has(name)) name = `${get(row)} - ${randomBytes(5).toString('hex')}`
    set(row, name)
    seen.add(name)
  }
}

function parseJson(text: string | null): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** Exports a project as a backup file: entities by name, secrets never included. */
export async function exportProject(db: Db, projectId: number): Promise<ProjectBackup> {
  const q = db.kysely
  const project = await q
    .selectFrom('project')
    .selectAll()
    .where('id', '=', projectId)
    .executeTakeFirst()
  if (!project) throw new NotFoundError('Project')
  const keys = (
    await q
      .selectFrom('access_key')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute()
  ).filter((k) => k.owner === '')
  const environments = await q
    .selectFrom('environment')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const views = await q
    .selectFrom('view')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const repositories = await q
    .selectFrom('repository')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const inventories = await q
    .selectFrom('inventory')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const templates = await q
    .selectFrom('template')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const schedules = await q
    .selectFrom('schedule')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()
  const integrations = await q
    .selectFrom('integration')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()

  const renamed = {
    keys: new Map<number, string>(),
    repos: new Map<number, string>(),
    invs: new Map<number, string>(),
    envs: new Map<number, string>(),
    views: new Map<number, string>(),
    tpls: new Map<number, string>(),
  }
  uniqueNames(
    keys,
    (k) => k.name,
    (k, n) => renamed.keys.set(k.id, n),
  )
  uniqueNames(
    repositories,
    (r) => r.name,
    (r, n) => renamed.repos.set(r.id, n),
  )
  uniqueNames(
    inventories,
    (i) => i.name,
    (i, n) => renamed.invs.set(i.id, n),
  )
  uniqueNames(
    environments,
    (e) => e.name,
    (e, n) => renamed.envs.set(e.id, n),
  )
  uniqueNames(
    views,
    (v) => v.title,
    (v, n) => renamed.views.set(v.id, n),
  )
  uniqueNames(
    templates,
    (t) => t.name,
    (t, n) => renamed.tpls.set(t.id, n),
  )
  const nameOf = (map: Map<number, string>, id: number | null) =>
    id === null ? undefined : map.get(id)

  const vaults = templates.length
    ? await q
        .selectFrom('template_vault')
        .selectAll()
        .where('project_id', '=', projectId)
        .orderBy('id')
        .execute()
    : []
  const integrationIds = integrations.map((i) => i.id)
  const matchers = integrationIds.length
    ? await q
        .selectFrom('integration_matcher')
        .selectAll()
        .where('integration_id', 'in', integrationIds)
        .orderBy('id')
        .execute()
    : []
  const values = integrationIds.length
    ? await q
        .selectFrom('integration_extract_value')
        .selectAll()
        .where('integration_id', 'in', integrationIds)
        .orderBy('id')
        .execute()
    : []
  const aliases = await q
    .selectFrom('integration_alias')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute()

  return {
    meta: compact({
      name: project.name,
      alert: Boolean(project.alert),
      alert_chat: project.alert_chat,
      max_parallel_tasks: project.max_parallel_tasks,
      task_retention_days: project.task_retention_days,
      max_tasks_per_template: project.max_tasks_per_template,
      type: project.type as '' | 'premium',
    }),
    keys: keys.map((k) => ({ name: renamed.keys.get(k.id)!, type: k.type })),
    environments: environments.map((e) =>
      // The password is a secret: like the others it stays out of the file.
      compact({ name: renamed.envs.get(e.id)!, json: e.json, env: e.env, image: e.image }),
    ),
    views: views.map((v) => ({ title: renamed.views.get(v.id)!, position: v.position })),
    repositories: repositories.map((r) =>
      compact({
        name: renamed.repos.get(r.id)!,
        // A password an older version kept in the URL stays out of the file.
        git_url: withoutUrlPassword(r.git_url),
        git_branch: r.git_branch,
        ssh_key: nameOf(renamed.keys, r.ssh_key_id),
      }),
    ),
    inventories: inventories.map((i) =>
      compact({
        name: renamed.invs.get(i.id)!,
        inventory: i.inventory,
        type: i.type,
        ssh_key: nameOf(renamed.keys, i.ssh_key_id),
        become_key: nameOf(renamed.keys, i.become_key_id),
        repository: nameOf(renamed.repos, i.repository_id),
        template: nameOf(renamed.tpls, i.template_id),
      }),
    ),
    templates: templates.map((t) => {
      const commitCheck = schedules.find((s) => s.template_id === t.id && s.repository_id !== null)
      return compact({
        name: renamed.tpls.get(t.id)!,
        playbook: t.playbook,
        arguments: t.arguments,
        allow_override_args_in_task: Boolean(t.allow_override_args_in_task),
        description: t.description,
        type: t.type,
        start_version: t.start_version,
        autorun: Boolean(t.autorun),
        git_branch: t.git_branch,
        survey_vars:
          (parseJson(t.survey_vars) as ProjectBackup['templates'][number]['survey_vars']) ?? [],
        suppress_success_alerts: Boolean(t.suppress_success_alerts),
        app: t.app,
        task_params: parseJson(t.task_params),
        runner_tag: t.runner_tag,
        inventory: nameOf(renamed.invs, t.inventory_id),
        repository: nameOf(renamed.repos, t.repository_id),
        environment: nameOf(renamed.envs, t.environment_id),
        build_template: nameOf(renamed.tpls, t.build_template_id),
        view: nameOf(renamed.views, t.view_id),
        vaults: vaults
          .filter((v) => v.template_id === t.id)
          .map((v) =>
            compact({
              name: v.name,
              type: v.type,
              script: v.script,
              vault_key: nameOf(renamed.keys, v.vault_key_id),
            }),
          ),
        cron: commitCheck?.cron_format,
      })
    }),
    integrations: integrations.map((i) =>
      compact({
        name: i.name,
        auth_method: i.auth_method,
        auth_header: i.auth_header,
        searchable: Boolean(i.searchable),
        debounce: i.debounce === 1 ? true : undefined,
        task_params: parseJson(i.task_params),
        template: renamed.tpls.get(i.template_id) ?? '',
        auth_secret: nameOf(renamed.keys, i.auth_secret_id),
        aliases: aliases.filter((a) => a.integration_id === i.id).map((a) => a.alias),
        matchers: matchers
          .filter((m) => m.integration_id === i.id)
          .map((m) =>
            compact({
              name: m.name,
              match_type: m.match_type,
              method: m.method,
              body_data_type: m.body_data_type,
              key: m.key,
              value: m.value,
            }),
          ),
        extract_values: values
          .filter((v) => v.integration_id === i.id)
          .map((v) =>
            compact({
              name: v.name,
              value_source: v.value_source,
              body_data_type: v.body_data_type,
              key: v.key,
              variable: v.variable,
            }),
          ),
      }),
    ),
    integration_aliases: aliases.filter((a) => a.integration_id === null).map((a) => a.alias),
    schedules: schedules
      .filter((s) => s.repository_id === null)
      .map((s) =>
        compact({
          name: s.name,
          cron_format: s.cron_format,
          active: Boolean(s.active),
          template: renamed.tpls.get(s.template_id) ?? '',
          timezone: s.timezone,
          missed_run_policy: s.missed_run_policy === 'run_once' ? 'run_once' : 'skip',
        }),
      ),
  }
}
