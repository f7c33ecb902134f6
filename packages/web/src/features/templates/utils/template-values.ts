import {
  appFields,
  BRANCH_OVERRIDE_PARAM,
  argumentsProblem,
  COMMIT_CHECK_INTERVALS,
  type CreateTemplateBody,
  isBackendFilename,
  isVaultClientScript,
  MAX_NAME_LENGTH,
  RUNNER_TAG_PATTERN,
  type Schedule,
  type SurveyVar,
  type Template,
  type TemplateVaultInput,
  vaultsProblem,
} from '@flagman/contract'
import type { TFunction } from 'i18next'
import { z } from 'zod'
import type { CommitCheckPlan } from '../api/commit-checks'

export interface VaultRow {
  name: string
  type: '' | 'password' | 'script'
  vault_key_id: string
  script: string
}

export interface TemplateFormValues {
  app: string
  name: string
  description: string
  type: '' | 'build' | 'deploy'
  playbook: string
  inventory_id: string
  repository_id: string
  environment_id: string
  view_id: string
  build_template_id: string
  start_version: string
  autorun: boolean
  git_branch: string
  arguments: string[]
  allow_override_args_in_task: boolean
  allow_override_branch_in_task: boolean
  survey_vars: SurveyVar[]
  vaults: VaultRow[]
  suppress_success_alerts: boolean
  /** Other task parameters of the template, kept as they are. */
  task_params: Record<string, unknown> | null
  /** Runs the template when the repository has a new commit, checked on `commit_check_cron`. */
  commit_check: boolean
  commit_check_cron: string
  /** Tasks run only on runners carrying this tag; empty: anywhere. */
  runner_tag: string
  /**
   * Terraform and OpenTofu: tasks write an empty `http` backend block into the module directory
   * (`backend_filename`, empty for backend.tf), so the state goes to the workspace's backend.
   */
  override_backend: boolean
  backend_filename: string
}

/** The interval a new commit check starts with: every minute. */
export const DEFAULT_COMMIT_CHECK_CRON: string = COMMIT_CHECK_INTERVALS[0].cron

const OVERRIDE_BACKEND = 'override_backend'
const BACKEND_FILENAME = 'backend_filename'

/** Apps whose tasks can keep their state in the workspace's HTTP backend. */
export function usesBackend(app: string): boolean {
  return app === 'terraform' || app === 'tofu'
}

const idText = (id: number | null | undefined) => (id ? String(id) : '')
const toId = (text: string) => (text === '' ? null : Number(text))

function parseArguments(text: string | null): string[] {
  if (!text || argumentsProblem(text)) return []
  const value: unknown = JSON.parse(text)
  return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []
}

function templateType(type: string): TemplateFormValues['type'] {
  return type === 'build' || type === 'deploy' ? type : ''
}

/**
 * Form values of a template; a copy gets the name with the copy suffix and, for Terraform and
 * OpenTofu, no workspace (a workspace belongs to one template; the copy gets its own).
 * `commitCheck` is the template's commit-check schedule, if it has one.
 */
export function templateToFormValues(
  template: Template | null,
  app: string,
  options: {
    viewId?: number | null
    nameSuffix?: string
    copy?: boolean
    commitCheck?: Schedule | null
  } = {},
): TemplateFormValues {
  const commitCheck = options.commitCheck ?? null
  const ownWorkspace =
    options.copy === true && (template?.app === 'terraform' || template?.app === 'tofu')
  return {
    app: template?.app ?? app,
    name: template ? template.name + (options.nameSuffix ?? '') : '',
    description: template?.description ?? '',
    type: templateType(template?.type ?? ''),
    playbook: template?.playbook ?? '',
    inventory_id: ownWorkspace ? '' : idText(template?.inventory_id),
    repository_id: idText(template?.repository_id),
    environment_id: idText(template?.environment_id),
    view_id: idText(template ? template.view_id : options.viewId),
    build_template_id: idText(template?.build_template_id),
    start_version: template?.start_version ?? '',
    autorun: template?.autorun ?? false,
    git_branch: template?.git_branch ?? '',
    arguments: parseArguments(template?.arguments ?? null),
    allow_override_args_in_task: template?.allow_override_args_in_task ?? false,
    allow_override_branch_in_task: template?.task_params?.[BRANCH_OVERRIDE_PARAM] === true,
    survey_vars: template?.survey_vars ?? [],
    vaults: (template?.vaults ?? []).map((vault) => ({
      name: vault.name ?? '',
      type: vault.type === 'password' || vault.type === 'script' ? vault.type : '',
      vault_key_id: idText(vault.vault_key_id),
      script: vault.script ?? '',
    })),
    suppress_success_alerts: template?.suppress_success_alerts ?? false,
    task_params: template?.task_params ?? null,
    commit_check: commitCheck !== null,
    commit_check_cron: commitCheck?.cron_format ?? DEFAULT_COMMIT_CHECK_CRON,
    runner_tag: template?.runner_tag ?? '',
    override_backend: template?.task_params?.[OVERRIDE_BACKEND] === true,
    backend_filename:
      typeof template?.task_params?.[BACKEND_FILENAME] === 'string'
        ? template.task_params[BACKEND_FILENAME]
        : '',
  }
}

function vaultInputs(rows: readonly VaultRow[]): TemplateVaultInput[] {
  return rows.map((row) => ({
    name: row.name.trim().toLowerCase() || null,
    type: row.type === '' ? 'password' : row.type,
    vault_key_id: row.type === 'password' ? toId(row.vault_key_id) : null,
    script: row.type === 'script' ? row.script.trim() || null : null,
  }))
}

/** The vault rule broken by one row, or null. */
export function vaultRowProblem(t: TFunction<'templates'>, row: VaultRow): string | null {
  if (row.type === 'password' && row.vault_key_id === '') return t('vaults.keyRequired')
  if (row.type === 'script') {
    if (row.script.trim() === '') return t('vaults.scriptRequired')
    if (!isVaultClientScript(row.script.trim())) return t('vaults.clientRule')
  }
  return null
}

export function templateFormSchema(t: TFunction<'templates'>) {
  const playbookLabel = (app: string) => t(`form.playbook.${appFields(app).playbookKind}`)
  return z
    .object({
      app: z.string().min(1),
      name: z
        .string()
        .trim()
        .min(1, t('form.nameRequired'))
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH })),
      description: z.string(),
      type: z.enum(['', 'build', 'deploy']),
      playbook: z.string().trim(),
      inventory_id: z.string(),
      repository_id: z.string(),
      environment_id: z.string(),
      view_id: z.string(),
      build_template_id: z.string(),
      start_version: z.string().trim(),
      autorun: z.boolean(),
      git_branch: z.string().trim(),
      arguments: z.array(z.string().trim()),
      allow_override_args_in_task: z.boolean(),
      allow_override_branch_in_task: z.boolean(),
      survey_vars: z.array(z.custom<SurveyVar>()),
      vaults: z.array(
        z.object({
          name: z.string(),
          type: z.enum(['', 'password', 'script']),
          vault_key_id: z.string(),
          script: z.string(),
        }),
      ),
      suppress_success_alerts: z.boolean(),
      task_params: z.record(z.string(), z.unknown()).nullable(),
      commit_check: z.boolean(),
      commit_check_cron: z.string().trim(),
      runner_tag: z
        .string()
        .trim()
        .max(MAX_NAME_LENGTH, t('form.tooLong', { max: MAX_NAME_LENGTH }))
        .refine((v) => v === '' || RUNNER_TAG_PATTERN.test(v), t('form.runnerTagInvalid')),
      override_backend: z.boolean(),
      backend_filename: z.string().trim(),
    })
    .superRefine((values, ctx) => {
      const fields = appFields(values.app)
      const issue = (path: (string | number)[], message: string) =>
        ctx.addIssue({ code: 'custom', path, message })
      if (values.type === 'build' && values.start_version === '') {
        issue(['start_version'], t('form.startVersionRequired'))
      }
      if (values.type === 'deploy' && values.build_template_id === '') {
        issue(['build_template_id'], t('form.buildTemplateRequired'))
      }
      if (fields.playbook === 'required' && values.playbook === '') {
        issue(['playbook'], t('form.playbookRequired', { label: playbookLabel(values.app) }))
      }
      if (fields.inventory === 'required' && values.inventory_id === '') {
        issue(['inventory_id'], t('form.inventoryRequired'))
      }
      if (values.commit_check && values.repository_id === '') {
        issue(['repository_id'], t('form.commitCheckRepositoryRequired'))
      } else if (fields.repository === 'required' && values.repository_id === '') {
        issue(['repository_id'], t('form.repositoryRequired'))
      }
      if (values.commit_check && values.commit_check_cron === '') {
        issue(['commit_check_cron'], t('form.commitCheckIntervalRequired'))
      }
      if (
        usesBackend(values.app) &&
        values.override_backend &&
        values.backend_filename !== '' &&
        !isBackendFilename(values.backend_filename)
      ) {
        issue(['backend_filename'], t('form.backendFilenameInvalid'))
      }
      if (fields.environment === 'required' && values.environment_id === '') {
        issue(['environment_id'], t('form.environmentRequired'))
      }
      values.arguments.forEach((arg, index) => {
        if (arg === '') issue(['arguments', index], t('args.required'))
      })
      if (fields.vaults && values.vaults.length > 0) {
        for (const row of values.vaults) {
          const problem = vaultRowProblem(t, row)
          if (problem) return issue(['vaults'], problem)
        }
        const rows = vaultInputs(values.vaults)
        if (rows.filter((row) => row.name === null).length > 1) {
          return issue(['vaults'], t('vaults.oneDefault'))
        }
        const names = rows.map((row) => row.name ?? 'default')
        if (new Set(names).size !== names.length) return issue(['vaults'], t('vaults.uniqueNames'))
        const problem = vaultsProblem(rows)
        if (problem) issue(['vaults'], problem)
      }
    })
}

export type TemplateFormOutput = z.output<ReturnType<typeof templateFormSchema>>

/**
 * The request body. A field the app does not show keeps the value it had, so that saving in
 * the console never clears what an API client set.
 */
export function toTemplateBody(values: TemplateFormOutput, projectId: number): CreateTemplateBody {
  const fields = appFields(values.app)
  return {
    project_id: projectId,
    app: values.app,
    name: values.name,
    description: values.description,
    type: values.type,
    playbook: fields.playbook === 'hidden' ? '' : values.playbook,
    inventory_id: toId(values.inventory_id),
    repository_id: toId(values.repository_id),
    environment_id: toId(values.environment_id),
    view_id: toId(values.view_id),
    build_template_id: values.type === 'deploy' ? toId(values.build_template_id) : null,
    start_version: values.type === 'build' ? values.start_version : null,
    autorun: values.autorun,
    git_branch: values.git_branch || null,
    arguments: values.arguments.length > 0 ? JSON.stringify(values.arguments) : null,
    allow_override_args_in_task: values.allow_override_args_in_task,
    survey_vars: values.survey_vars,
    vaults: fields.vaults ? vaultInputs(values.vaults) : [],
    suppress_success_alerts: values.suppress_success_alerts,
    task_params: taskParams(values),
    runner_tag: values.runner_tag || null,
  }
}

/**
 * The template's task parameters with the branch override flag and, for Terraform and OpenTofu,
 * the backend override set or cleared; the others are kept as they are.
 */
function taskParams(values: TemplateFormOutput): Record<string, unknown> | null {
  const params: Record<string, unknown> = { ...(values.task_params ?? {}) }
  if (values.allow_override_branch_in_task) params[BRANCH_OVERRIDE_PARAM] = true
  else delete params[BRANCH_OVERRIDE_PARAM]
  if (usesBackend(values.app)) {
    if (values.override_backend) params[OVERRIDE_BACKEND] = true
    else delete params[OVERRIDE_BACKEND]
    if (values.override_backend && values.backend_filename !== '') {
      params[BACKEND_FILENAME] = values.backend_filename
    } else delete params[BACKEND_FILENAME]
  }
  return Object.keys(params).length > 0 ? params : null
}

/** The commit check the template should have once saved, or null for none. */
export function commitCheckPlan(values: TemplateFormOutput): CommitCheckPlan | null {
  if (!values.commit_check || values.repository_id === '') return null
  return {
    cron: values.commit_check_cron,
    repositoryId: Number(values.repository_id),
    name: values.name,
  }
}
