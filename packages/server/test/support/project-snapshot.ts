import {
  AccessKey,
  Environment,
  Integration,
  IntegrationAlias,
  IntegrationExtractValue,
  IntegrationMatcher,
  Inventory,
  Project,
  Repository,
  Schedule,
  ScheduleWithTemplate,
  Template,
  View,
} from '@flagman/contract'
import type { ProjectResources } from './resources.js'

/** The last part of an alias URL: the alias string itself. */
const aliasOf = (alias: IntegrationAlias) => alias.url.split('/').pop()

/**
 * Everything of a project a backup carries, every reference replaced by the name of what it
 * refers to among the project's own entities (a reference elsewhere shows as a difference),
 * lists sorted by name so that ids and creation order do not count.
 */
export async function projectSnapshot(p: ProjectResources) {
  const [project, keys, repositories, shared, environments, views, templates, schedules] =
    await Promise.all([
      p.get('', Project),
      p.list('/keys', AccessKey),
      p.list('/repositories', Repository),
      p.list('/inventory', Inventory),
      p.list('/environment', Environment),
      p.list('/views', View),
      p.list('/templates', Template),
      p.list('/schedules', ScheduleWithTemplate),
    ])
  const owned = await Promise.all(
    templates.map((t) => p.list(`/inventory?template_id=${t.id}`, Inventory)),
  )
  const inventories = [...shared, ...owned.flat()]
  const commitChecks = (
    await Promise.all(templates.map((t) => p.list(`/templates/${t.id}/schedules`, Schedule)))
  )
    .flat()
    .filter((s) => s.repository_id !== null)
  const integrations = await p.list('/integrations', Integration)
  const parts = await Promise.all(
    integrations.map(async (i) => ({
      matchers: await p.list(`/integrations/${i.id}/matchers`, IntegrationMatcher),
      values: await p.list(`/integrations/${i.id}/values`, IntegrationExtractValue),
      aliases: await p.list(`/integrations/${i.id}/aliases`, IntegrationAlias),
    })),
  )
  const projectAliases = await p.list('/integrations/aliases', IntegrationAlias)

  const nameIn =
    <T extends { id: number }>(items: T[], label: (item: T) => string) =>
    (id: number | null) => {
      if (id === null) return null
      const item = items.find((candidate) => candidate.id === id)
      return item ? label(item) : `unknown id ${id}`
    }
  const key = nameIn(keys, (k) => k.name)
  const repository = nameIn(repositories, (r) => r.name)
  const inventory = nameIn(inventories, (i) => i.name)
  const environment = nameIn(environments, (e) => e.name)
  const view = nameIn(views, (v) => v.title)
  const template = nameIn(templates, (t) => t.name)
  const sorted = <T>(items: T[], label: (item: T) => string) =>
    [...items].sort((a, b) => label(a).localeCompare(label(b)))

  return {
    project: {
      name: project.name,
      alert: project.alert,
      alert_chat: project.alert_chat,
      max_parallel_tasks: project.max_parallel_tasks,
      type: project.type,
    },
    keys: sorted(keys, (k) => k.name).map((k) => ({ name: k.name, type: k.type })),
    environments: sorted(environments, (e) => e.name).map((e) => ({
      name: e.name,
      json: e.json,
      env: e.env,
      image: e.image ?? null,
    })),
    views: sorted(views, (v) => v.title).map((v) => ({ title: v.title, position: v.position })),
    repositories: sorted(repositories, (r) => r.name).map((r) => ({
      name: r.name,
      git_url: r.git_url,
      git_branch: r.git_branch,
      ssh_key: key(r.ssh_key_id),
    })),
    inventories: sorted(inventories, (i) => i.name).map((i) => ({
      name: i.name,
      type: i.type,
      inventory: i.inventory,
      ssh_key: key(i.ssh_key_id),
      become_key: key(i.become_key_id),
      repository: repository(i.repository_id),
      template: template(i.template_id),
    })),
    templates: sorted(templates, (t) => t.name).map((t) => ({
      name: t.name,
      app: t.app,
      type: t.type,
      playbook: t.playbook,
      arguments: t.arguments,
      description: t.description,
      allow_override_args_in_task: t.allow_override_args_in_task,
      start_version: t.start_version,
      autorun: t.autorun,
      git_branch: t.git_branch,
      survey_vars: t.survey_vars ?? [],
      suppress_success_alerts: t.suppress_success_alerts,
      task_params: t.task_params,
      runner_tag: t.runner_tag,
      inventory: inventory(t.inventory_id),
      repository: repository(t.repository_id),
      environment: environment(t.environment_id),
      view: view(t.view_id),
      build_template: template(t.build_template_id),
      vaults: sorted(t.vaults, (v) => v.name ?? '').map((v) => ({
        name: v.name,
        type: v.type,
        script: v.script,
        vault_key: key(v.vault_key_id),
      })),
    })),
    schedules: sorted(schedules, (s) => s.name).map((s) => ({
      name: s.name,
      cron_format: s.cron_format,
      active: s.active,
      template: template(s.template_id),
      repository: repository(s.repository_id),
      timezone: s.timezone,
      missed_run_policy: s.missed_run_policy,
    })),
    commitChecks: sorted(commitChecks, (s) => String(template(s.template_id))).map((s) => ({
      template: template(s.template_id),
      cron_format: s.cron_format,
      active: s.active,
      repository: repository(s.repository_id),
    })),
    integrations: sorted(
      integrations.map((i, index) => ({ ...i, ...parts[index]! })),
      (i) => i.name,
    ).map((i) => ({
      name: i.name,
      template: template(i.template_id),
      auth_method: i.auth_method,
      auth_header: i.auth_header,
      auth_secret: key(i.auth_secret_id),
      searchable: i.searchable,
      debounce: i.debounce,
      task_params: i.task_params,
      matchers: sorted(i.matchers, (m) => m.name).map((m) => ({
        name: m.name,
        match_type: m.match_type,
        method: m.method,
        body_data_type: m.body_data_type,
        key: m.key,
        value: m.value,
      })),
      values: sorted(i.values, (v) => v.name).map((v) => ({
        name: v.name,
        value_source: v.value_source,
        body_data_type: v.body_data_type,
        key: v.key,
        variable: v.variable,
      })),
      aliases: i.aliases.map(aliasOf).sort(),
    })),
    projectAliases: projectAliases.map(aliasOf).sort(),
  }
}
export type ProjectSnapshot = Awaited<ReturnType<typeof projectSnapshot>>

/** An entity of a snapshot by name, failing the test when there is none. */
export function named<T extends { name: string }>(items: T[], name: string): T {
  const found = items.find((item) => item.name === name)
  if (!found) throw new Error(`no ${name} among ${items.map((i) => i.name).join(', ')}`)
  return found
}
