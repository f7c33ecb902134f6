import { randomBytes } from 'node:crypto'
import type { ProjectBackup, RestoredProject } from '@flagman/contract'
import { classifyRepositoryUrl, MAX_TIMEZONE_LENGTH, withoutUrlPassword } from '@flagman/contract'
import type { Database, Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { Kysely } from 'kysely'
import type { Config } from '../../config.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { cronError, isTimeZone } from '../../lib/cron.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, UnauthorizedError } from '../../platform/errors.js'
import { findApp } from '../apps/index.js'
import { insertEvent } from '../events/index.js'
import { planRestore } from './restore-mapping.js'
import { RestoreReportBuilder } from './restore-report.js'

function fail(message: string): never {
  throw new BadRequestError(`The backup can not be restored: ${message}`)
}

function checkUnique(kind: string, names: string[]): void {
  const seen = new Set<string>()
  for (const name of names) {
    if (seen.has(name)) fail(`there are two ${kind} named "${name}"`)
    seen.add(name)
  }
}

/**
 * The rules a (mapped) file must meet, checked before anything is written: what the
 * compatible server refuses too. What can be mapped or left out has been, and reported.
 */
function verify(backup: ProjectBackup): void {
  checkUnique(
    'keys',
    backup.keys.map((k) => k.name),
  )
  checkUnique(
    'environments',
    backup.environments.map((e) => e.name),
  )
  checkUnique(
    'views',
    backup.views.map((v) => v.title),
  )
  checkUnique(
    'repositories',
    backup.repositories.map((r) => r.name),
  )
  checkUnique(
    'inventories',
    backup.inventories.map((i) => i.name),
  )
  checkUnique(
    'templates',
    backup.templates.map((t) => t.name),
  )
  const keys = new Set(backup.keys.map((k) => k.name))
  const has = (set: Set<string>, name: string | null | undefined) => !name || set.has(name)
  for (const repo of backup.repositories) {
    if (!repo.ssh_key) fail(`repository "${repo.name}" names no access key`)
    if (!keys.has(repo.ssh_key))
      fail(`repository "${repo.name}" uses a key "${repo.ssh_key}" that is not in the file`)
    // The rules of the repository routes: git must not read the URL or branch as an option.
    if (!classifyRepositoryUrl(repo.git_url)) {
      fail(
        `repository "${repo.name}" has an incorrect URL: use a local path starting with /, user@host:path, or a git, file, ssh, http or https URL`,
      )
    }
    if (repo.git_branch?.trim().startsWith('-')) {
      fail(
        `repository "${repo.name}" has an incorrect branch: a branch name can not start with "-"`,
      )
    }
  }
  const repos = new Set(backup.repositories.map((r) => r.name))
  const invs = new Set(backup.inventories.map((i) => i.name))
  const envs = new Set(backup.environments.map((e) => e.name))
  const views = new Set(backup.views.map((v) => v.title))
  const templates = new Set(backup.templates.map((t) => t.name))
  for (const t of backup.templates) {
    if (!t.repository || !repos.has(t.repository))
      fail(`template "${t.name}" names no repository of the file`)
    if (!has(invs, t.inventory))
      fail(`template "${t.name}" uses an inventory that is not in the file`)
    if (!has(envs, t.environment))
      fail(`template "${t.name}" uses an environment that is not in the file`)
    if (!has(views, t.view)) fail(`template "${t.name}" uses a view that is not in the file`)
    if (t.type === 'deploy' && (!t.build_template || !templates.has(t.build_template))) {
      fail(`deploy template "${t.name}" needs a build template of the file`)
    }
    for (const vault of t.vaults) {
      if (!has(keys, vault.vault_key)) fail(`template "${t.name}" has a vault with an unknown key`)
    }
    if (t.cron) {
      const problem = cronError(t.cron)
      if (problem) fail(`template "${t.name}" has an invalid cron "${t.cron}": ${problem}`)
    }
  }
  for (const s of backup.schedules) {
    const label = `schedule "${s.name ?? ''}"`
    const timezone = s.timezone?.trim() ?? ''
    if (timezone.length > MAX_TIMEZONE_LENGTH || (timezone !== '' && !isTimeZone(timezone))) {
      fail(`${label} has an unknown time zone "${timezone.slice(0, MAX_TIMEZONE_LENGTH)}"`)
    }
    const problem = cronError(s.cron_format ?? '', timezone || undefined)
    if (problem) fail(`${label} has an invalid cron: ${problem}`)
  }
  for (const i of backup.integrations) {
    if (!has(keys, i.auth_secret))
      fail(`integration "${i.name}" uses a key that is not in the file`)
  }
}

function json(value: unknown): string | null {
  return value === undefined || value === null ? null : JSON.stringify(value)
}

/** An alias taken on this server (say, by the project the backup came from) gets a new one. */
async function freeAlias(
  trx: Kysely<Database>,
  wanted: string,
  onTaken: () => void,
): Promise<string> {
  const taken = await trx
    .selectFrom('integration_alias')
    .select('id')
    .where('alias', '=', wanted)
    .executeTakeFirst()
  if (!taken) return wanted
  onTaken()
  return randomBytes(12).toString('base64url').slice(0, 16)
}

const ALIAS_TAKEN =
  'the alias is in use on this server; a new one was made, so its webhook URL changed'

/** The apps of the file that this server has (built in, or added by an administrator). */
async function knownApps(db: Db, backup: ProjectBackup): Promise<Set<string>> {
  const apps = new Set(backup.templates.map((t) => t.app || 'ansible'))
  const known = new Set<string>()
  for (const app of apps) if (await findApp(db, app)) known.add(app)
  return known
}

/**
 * Creates a new project from a backup, owned by the caller. Keys come without secrets
 * (they show as `empty`) and must be filled in before tasks run. All or nothing: a file
 * that does not hold together is refused; what Flagman has no place for is left out and
 * listed in the answer's `restore_report`. `raw` is the file as sent, before parsing.
 */
export async function restoreProject(
  db: Db,
  config: Config,
  secrets: SecretBox,
  actor: Actor,
  parsed: ProjectBackup,
  raw: unknown,
): Promise<RestoredProject> {
  if (!actor.admin && !config.nonAdminCanCreateProject) {
    throw new UnauthorizedError('Only administrators can create projects')
  }
  const report = new RestoreReportBuilder(raw)
  const apps = await knownApps(db, parsed)
  const { backup, workspaceOwners, integrationIndexes } = planRestore(parsed, report, (app) =>
    apps.has(app),
  )
  verify(backup)
  const aliasTaken = (path: ReadonlyArray<string | number>) => () => report.note(path, ALIAS_TAKEN)
  return db.kysely.transaction().execute(async (trx) => {
    const ctx = { kysely: trx, dialect: db.dialect }
    const created = nowIso()
    const meta = backup.meta
    const projectId = await insertReturningId(ctx, 'project', {
      name: meta.name,
      created,
      alert: flag(meta.alert),
      alert_chat: meta.alert_chat || null,
      max_parallel_tasks: meta.max_parallel_tasks ?? 0,
      type: meta.type ?? '',
      task_retention_days: meta.task_retention_days ?? null,
      max_tasks_per_template: meta.max_tasks_per_template || null,
    })
    await trx
      .insertInto('project_user')
      .values({ project_id: projectId, user_id: actor.id, role: 'owner' })
      .execute()

    const ids = {
      key: new Map<string, number>(),
      env: new Map<string, number>(),
      view: new Map<string, number>(),
      repo: new Map<string, number>(),
      inv: new Map<string, number>(),
      tpl: new Map<string, number>(),
    }
    /** A reference `verify` has already proven to exist. */
    const must = (map: Map<string, number>, name: string | null | undefined): number => {
      const found = name ? map.get(name) : undefined
      if (found === undefined) fail(`"${name ?? ''}" is not in the file`)
      return found
    }
    const id = (map: Map<string, number>, name: string | null | undefined) =>
      name ? (map.get(name) ?? null) : null

    for (const e of backup.environments) {
      ids.env.set(
        e.name,
        await insertReturningId(ctx, 'environment', {
          project_id: projectId,
          name: e.name,
          password: e.password ? secrets.encrypt(e.password) : null,
          json: e.json || '{}',
          env: e.env ?? null,
          image: e.image ?? null,
          created,
        }),
      )
    }
    for (const v of backup.views) {
      ids.view.set(
        v.title,
        await insertReturningId(ctx, 'view', {
          project_id: projectId,
          title: v.title,
          position: v.position ?? 0,
        }),
      )
    }
    for (const k of backup.keys) {
      ids.key.set(
        k.name,
        await insertReturningId(ctx, 'access_key', {
          project_id: projectId,
          name: k.name,
          type: k.type,
          secret: null,
          created,
        }),
      )
    }
    for (const r of backup.repositories) {
      ids.repo.set(
        r.name,
        await insertReturningId(ctx, 'repository', {
          project_id: projectId,
          name: r.name,
          // A password in the URL (files written elsewhere may have one) is left out; the
          // key store is where it belongs.
          git_url: withoutUrlPassword(r.git_url),
          git_branch: r.git_branch ?? '',
          ssh_key_id: must(ids.key, r.ssh_key),
          created,
        }),
      )
    }
    for (const i of backup.inventories) {
      ids.inv.set(
        i.name,
        await insertReturningId(ctx, 'inventory', {
          project_id: projectId,
          name: i.name,
          type: i.type ?? 'static',
          inventory: i.inventory ?? '',
          ssh_key_id: id(ids.key, i.ssh_key),
          become_key_id: id(ids.key, i.become_key),
          repository_id: id(ids.repo, i.repository),
          created,
        }),
      )
    }
    // Deploy templates last, so that their build template exists.
    const ordered = [
      ...backup.templates.filter((t) => t.type !== 'deploy'),
      ...backup.templates.filter((t) => t.type === 'deploy'),
    ]
    for (const t of ordered) {
      const templateId = await insertReturningId(ctx, 'template', {
        project_id: projectId,
        name: t.name,
        description: t.description ?? null,
        type: t.type ?? '',
        app: t.app || 'ansible',
        playbook: t.playbook ?? '',
        arguments: t.arguments ?? null,
        allow_override_args_in_task: flag(t.allow_override_args_in_task),
        autorun: flag(t.autorun),
        suppress_success_alerts: flag(t.suppress_success_alerts),
        start_version: t.start_version ?? null,
        git_branch: t.git_branch ?? null,
        survey_vars: json(t.survey_vars),
        task_params: json(t.task_params),
        runner_tag: t.runner_tag || null,
        inventory_id: id(ids.inv, t.inventory),
        repository_id: id(ids.repo, t.repository),
        environment_id: id(ids.env, t.environment),
        view_id: id(ids.view, t.view),
        build_template_id: id(ids.tpl, t.build_template),
        created,
      })
      ids.tpl.set(t.name, templateId)
      for (const v of t.vaults) {
        await insertReturningId(ctx, 'template_vault', {
          project_id: projectId,
          template_id: templateId,
          name: v.name ?? null,
          type: v.type || 'password',
          script: v.script ?? null,
          vault_key_id: id(ids.key, v.vault_key),
        })
      }
      if (t.cron) {
        // A template's own cron is a commit check on its repository.
        await insertReturningId(ctx, 'schedule', {
          project_id: projectId,
          template_id: templateId,
          repository_id: id(ids.repo, t.repository),
          cron_format: t.cron,
          name: '',
          active: 1,
          created,
        })
      }
    }
    // Workspaces join their templates once both exist.
    for (const [inventory, template] of workspaceOwners) {
      await trx
        .updateTable('inventory')
        .set({ template_id: must(ids.tpl, template) })
        .where('id', '=', must(ids.inv, inventory))
        .execute()
    }
    for (const [index, i] of backup.integrations.entries()) {
      const integrationId = await insertReturningId(ctx, 'integration', {
        project_id: projectId,
        name: i.name,
        template_id: must(ids.tpl, i.template),
        auth_method: i.auth_method ?? '',
        auth_header: i.auth_header ?? '',
        auth_secret_id: id(ids.key, i.auth_secret),
        searchable: flag(i.searchable),
        debounce: flag(i.debounce),
        task_params: json(i.task_params),
      })
      for (const m of i.matchers) {
        await insertReturningId(ctx, 'integration_matcher', {
          integration_id: integrationId,
          name: m.name,
          // Both checked by the mapping; a missing method means equals, as in the routes.
          match_type: m.match_type ?? 'body',
          method: m.method || 'equals',
          body_data_type: m.body_data_type ?? '',
          key: m.key ?? '',
          value: m.value ?? '',
        })
      }
      for (const v of i.extract_values) {
        await insertReturningId(ctx, 'integration_extract_value', {
          integration_id: integrationId,
          name: v.name,
          value_source: v.value_source ?? '',
          body_data_type: v.body_data_type ?? '',
          key: v.key ?? '',
          variable: v.variable ?? '',
        })
      }
      for (const [j, alias] of i.aliases.entries()) {
        await insertReturningId(ctx, 'integration_alias', {
          project_id: projectId,
          integration_id: integrationId,
          alias: await freeAlias(
            trx,
            alias,
            aliasTaken(['integrations', integrationIndexes[index]!, 'aliases', j]),
          ),
        })
      }
    }
    for (const [index, alias] of backup.integration_aliases.entries()) {
      await insertReturningId(ctx, 'integration_alias', {
        project_id: projectId,
        integration_id: null,
        alias: await freeAlias(trx, alias, aliasTaken(['integration_aliases', index])),
      })
    }
    for (const s of backup.schedules) {
      await insertReturningId(ctx, 'schedule', {
        project_id: projectId,
        template_id: must(ids.tpl, s.template),
        repository_id: null,
        cron_format: s.cron_format ?? '',
        name: s.name ?? '',
        active: flag(s.active ?? true),
        timezone: s.timezone?.trim() ?? '',
        missed_run_policy: s.missed_run_policy ?? 'skip',
        created,
      })
    }
    const unmapped = report.items()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'project',
      objectId: projectId,
      description: restoredDescription(unmapped.length),
    })
    const row = await trx
      .selectFrom('project')
      .selectAll()
      .where('id', '=', projectId)
      .executeTakeFirstOrThrow()
    return {
      id: row.id,
      name: row.name,
      created: row.created,
      alert: Boolean(row.alert),
      alert_chat: row.alert_chat,
      max_parallel_tasks: row.max_parallel_tasks,
      type: row.type,
      task_retention_days: row.task_retention_days ?? null,
      max_tasks_per_template: row.max_tasks_per_template || null,
      restore_report: unmapped,
    }
  })
}

function restoredDescription(unmapped: number): string {
  if (unmapped === 0) return 'Project restored from a backup'
  const items = unmapped === 1 ? '1 item' : `${unmapped} items`
  return `Project restored from a backup; ${items} could not be mapped`
}
