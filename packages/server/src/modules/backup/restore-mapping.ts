import type { ProjectBackup } from '@flagman/contract'
import {
  BODY_DATA_TYPES,
  BRANCH_OVERRIDE_PARAM,
  INTEGRATION_AUTH_METHODS,
  INVENTORY_TYPES,
  MATCH_METHODS,
  MATCH_TYPES,
  SURVEY_VAR_TYPES,
  TEMPLATE_TYPES,
  VAULT_TYPES,
} from '@flagman/contract'
import type { RestoreReportBuilder } from './restore-report.js'

type Template = ProjectBackup['templates'][number]
type Integration = ProjectBackup['integrations'][number]

const KEY_TYPES: readonly string[] = ['none', 'ssh', 'login_password']
const BODY_TYPES: readonly string[] = ['', ...BODY_DATA_TYPES]

/** The workspace type each Terraform-like app uses. */
const WORKSPACE_TYPE_OF_APP: Record<string, string> = {
  terraform: 'terraform-workspace',
  tofu: 'tofu-workspace',
}

const isOneOf = (values: readonly string[], value: string) => values.includes(value)

/** A backup whose every value Flagman can store, and who owns each workspace. */
export interface RestorePlan {
  backup: ProjectBackup
  /** Inventory name → name of the template owning it (Terraform/OpenTofu workspaces). */
  workspaceOwners: Map<string, string>
  /** Where each integration kept is in the file: its index among those written. */
  integrationIndexes: number[]
}

/**
 * Maps what compatible servers of other versions write onto what Flagman has, noting in
 * the report what it changes or leaves out. What can not hold together (a repository
 * without its key, a deploy template without its build template...) is left to `verify`.
 * `isKnownApp` tells the apps this server has.
 */
export function planRestore(
  backup: ProjectBackup,
  report: RestoreReportBuilder,
  isKnownApp: (app: string) => boolean,
): RestorePlan {
  const keys = backup.keys.map((key, index) => {
    if (isOneOf(KEY_TYPES, key.type)) return key
    report.note(
      ['keys', index, 'type'],
      key.type === ''
        ? 'the type is empty; restored as a key of type none'
        : `type "${key.type}" is not supported; restored as a key of type none`,
    )
    return { ...key, type: 'none' }
  })
  const keyNames = new Set(keys.map((k) => k.name))
  const repositoryNames = new Set(backup.repositories.map((r) => r.name))

  const inventories = backup.inventories.map((inventory, index) => {
    const at = ['inventories', index] as const
    const mapped = { ...inventory }
    const type = inventory.type ?? ''
    if (!isOneOf(INVENTORY_TYPES, type)) {
      report.note(
        [...at, 'type'],
        type === ''
          ? 'the type is empty; restored as a static inventory, check it before running tasks'
          : `type "${type}" is not supported; restored as a static inventory, check it before running tasks`,
      )
      mapped.type = 'static'
    }
    for (const field of ['ssh_key', 'become_key'] as const) {
      const name = inventory[field]
      if (name && !keyNames.has(name)) {
        report.note([...at, field], `key "${name}" is not in the file; left empty`)
        mapped[field] = null
      }
    }
    if (inventory.repository && !repositoryNames.has(inventory.repository)) {
      report.note(
        [...at, 'repository'],
        `repository "${inventory.repository}" is not in the file; the template's repository is used`,
      )
      mapped.repository = null
    }
    return mapped
  })

  const templates = backup.templates.map((template, index) =>
    mapTemplate(template, index, report, isKnownApp),
  )
  const templateNames = new Set(templates.map((t) => t.name))

  const schedules = backup.schedules.filter((schedule, index) => {
    const at = ['schedules', index]
    const type = schedule.type ?? ''
    if (!schedule.template) {
      report.skip(
        at,
        'names no template (written for a schedule whose template was deleted); skipped',
      )
    } else if (!templateNames.has(schedule.template)) {
      report.skip(at, `template "${schedule.template}" is not in the file; skipped`)
    } else if (type === 'run_at') {
      report.skip(at, 'one-off schedules (run_at) are not supported; skipped')
    } else if (type !== '' && type !== 'cron') {
      report.skip(at, `type "${type}" is not supported; skipped`)
    } else if (!schedule.cron_format) {
      report.skip(at, 'has no cron expression; skipped')
    } else {
      return true
    }
    return false
  })

  const integrationIndexes: number[] = []
  const integrations = backup.integrations.flatMap((integration, index) => {
    const mapped = mapIntegration(integration, index, templateNames, report)
    if (mapped) integrationIndexes.push(index)
    return mapped ? [mapped] : []
  })

  return {
    backup: { ...backup, keys, inventories, templates, schedules, integrations },
    workspaceOwners: workspaceOwners(inventories, templates, report),
    integrationIndexes,
  }
}

function mapTemplate(
  template: Template,
  index: number,
  report: RestoreReportBuilder,
  isKnownApp: (app: string) => boolean,
): Template {
  const at = ['templates', index] as const
  const mapped = { ...template, app: template.app || 'ansible' }
  if (!isOneOf(TEMPLATE_TYPES, template.type ?? '')) {
    report.note([...at, 'type'], `type "${template.type}" is not supported; restored as a task`)
    mapped.type = ''
  }
  if (!isKnownApp(mapped.app)) {
    report.note(
      [...at, 'app'],
      `app "${mapped.app}" is not one of this server's apps; add it before running the template`,
    )
  }
  mapped.survey_vars = template.survey_vars.flatMap((variable, j) => {
    const name = variable.name.trim()
    if (name === '') {
      report.skip([...at, 'survey_vars', j], 'a survey variable without a name; skipped')
      return []
    }
    let type = variable.type ?? ''
    if (!isOneOf(SURVEY_VAR_TYPES, type)) {
      report.note(
        [...at, 'survey_vars', j, 'type'],
        type === 'text'
          ? 'type "text" is not supported; restored as a one-line string'
          : `type "${type}" is not supported; restored as a string`,
      )
      type = ''
    }
    return [
      {
        name,
        title: variable.title.trim() || name,
        description: variable.description ?? '',
        type,
        required: variable.required ?? false,
        values: variable.values,
      },
    ]
  })
  mapped.vaults = template.vaults.flatMap((vault, j) => {
    const type = vault.type || 'password'
    if (isOneOf(VAULT_TYPES, type)) return [{ ...vault, type }]
    report.skip([...at, 'vaults', j], `vault type "${type}" is not supported; skipped`)
    return []
  })
  if (template.allow_override_branch_in_task) {
    // Newer files carry the branch override as a field; Flagman keeps it in the parameters.
    const params =
      typeof template.task_params === 'object' && template.task_params !== null
        ? (template.task_params as Record<string, unknown>)
        : {}
    mapped.task_params = { ...params, [BRANCH_OVERRIDE_PARAM]: true }
  }
  mapped.allow_override_branch_in_task = undefined
  if (template.vault_key) {
    // Files from before vaults had one vault password per template: the default vault.
    if (mapped.vaults.some((vault) => !vault.name)) {
      report.note([...at, 'vault_key'], 'the template already has a default vault; ignored')
    } else {
      mapped.vaults.push({ type: 'password', vault_key: template.vault_key })
    }
    mapped.vault_key = undefined
  }
  return mapped
}

function mapIntegration(
  integration: Integration,
  index: number,
  templateNames: Set<string>,
  report: RestoreReportBuilder,
): Integration | null {
  const at = ['integrations', index] as const
  const auth = integration.auth_method ?? ''
  if (!integration.template) {
    report.skip(at, 'names no template; skipped')
    return null
  }
  if (!templateNames.has(integration.template)) {
    report.skip(at, `template "${integration.template}" is not in the file; skipped`)
    return null
  }
  if (!isOneOf(INTEGRATION_AUTH_METHODS, auth)) {
    // Left out rather than opened: its webhooks would no longer be checked.
    report.skip(at, `authentication "${auth}" is not supported; skipped`)
    return null
  }
  const matchers = integration.matchers.filter((matcher, j) => {
    const problem = !isOneOf(MATCH_TYPES, matcher.match_type ?? '')
      ? `match type "${matcher.match_type ?? ''}"`
      : !isOneOf(MATCH_METHODS, matcher.method || 'equals')
        ? `method "${matcher.method}"`
        : !isOneOf(BODY_TYPES, matcher.body_data_type ?? '')
          ? `body type "${matcher.body_data_type}"`
          : null
    if (problem) report.skip([...at, 'matchers', j], `${problem} is not supported; skipped`)
    return problem === null
  })
  const values = integration.extract_values.filter((value, j) => {
    const problem = !isOneOf(['', ...MATCH_TYPES], value.value_source ?? '')
      ? `value source "${value.value_source}"`
      : !isOneOf(BODY_TYPES, value.body_data_type ?? '')
        ? `body type "${value.body_data_type}"`
        : null
    if (problem) report.skip([...at, 'extract_values', j], `${problem} is not supported; skipped`)
    return problem === null
  })
  return { ...integration, matchers, extract_values: values }
}

/**
 * Who owns each Terraform/OpenTofu workspace. Flagman's files name the owner; compatible
 * files do not, so a workspace goes to the first terraform/tofu template naming it as its
 * inventory, and the others stay project inventories that can be attached later.
 */
function workspaceOwners(
  inventories: ProjectBackup['inventories'],
  templates: Template[],
  report: RestoreReportBuilder,
): Map<string, string> {
  const owners = new Map<string, string>()
  const fits = (template: Template | undefined, type: string | null | undefined) =>
    template !== undefined && WORKSPACE_TYPE_OF_APP[template.app ?? ''] === type
  inventories.forEach((inventory, index) => {
    if (inventory.template) {
      const owner = templates.find((t) => t.name === inventory.template)
      if (fits(owner, inventory.type)) owners.set(inventory.name, inventory.template)
      else {
        report.note(
          ['inventories', index, 'template'],
          `"${inventory.template}" is not a template of the file that can own this inventory; kept as a project inventory`,
        )
      }
      return
    }
    const owner = templates.find((t) => t.inventory === inventory.name && fits(t, inventory.type))
    if (owner) owners.set(inventory.name, owner.name)
  })
  return owners
}
