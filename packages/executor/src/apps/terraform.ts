import type { JobSpec } from '@flagman/contract'
import { formatValue, varSecretEnv } from './common.js'

export interface TerraformCommands {
  program: string
  init: string[]
  workspaceList: string[]
  workspaceSelect: string[]
  plan: string[]
  apply: string[]
  /** `TF_VAR_{name}` for each var secret and the `TF_HTTP_*` state backend, for every stage. */
  env: Record<string, string>
  /** Workspace selection is skipped: the backend address already names the workspace. */
  selectWorkspace: boolean
  /** Var secrets that could not be passed, for the task log. */
  notes: string[]
}

/**
 * terraform and tofu stage command lines: every stage but init gets `-destroy` when asked,
 * the template and task arguments, then `-var` for each extra var (values formatted as for
 * the shell apps). Var secrets are never arguments: they travel as `TF_VAR_{name}` variables,
 * and an extra var of the same name is left out so the secret keeps its precedence.
 */
export function buildTerraformCommands(spec: JobSpec): TerraformCommands {
  const program = spec.appPath !== '' ? spec.appPath : spec.app
  const prefix = spec.appArgs ?? []
  const tf = spec.terraform
  const init = [...prefix, 'init', '-lock=false']
  if (tf.upgrade) init.push('-upgrade')
  // Without reconfigure, a changed backend migrates the state after a confirmation.
  init.push(tf.reconfigure ? '-reconfigure' : '-migrate-state')
  const workspace =
    spec.inventory !== null && spec.inventory.content !== '' ? spec.inventory.content : 'default'
  const secrets = varSecretEnv(spec, 'terraform')
  const secretNames = new Set(Object.keys(secrets.env).map((name) => name.slice('TF_VAR_'.length)))
  const vars: string[] = []
  for (const [name, value] of Object.entries(spec.extraVars)) {
    if (name === 'semaphore_vars' || secretNames.has(name)) continue
    vars.push('-var', `${name}=${formatValue(value)}`)
  }
  // With the workspace's backend wired in, plan and apply lock the state; otherwise the
  // compatible command lines (no locking) are kept.
  const lock = tf.backend?.overrideFile ? [] : ['-lock=false']
  const stage = (...head: string[]): string[] => [
    ...prefix,
    ...head,
    ...(tf.destroy ? ['-destroy'] : []),
    ...spec.templateArgs,
    ...spec.taskArgs,
    ...vars,
  ]
  return {
    program,
    init,
    workspaceList: [...prefix, 'workspace', 'list'],
    workspaceSelect: [...prefix, 'workspace', 'select', '-or-create=true', workspace],
    plan: stage('plan', ...lock),
    apply: stage('apply', '-auto-approve', ...lock),
    env: { ...secrets.env, ...backendEnv(spec) },
    selectWorkspace: !tf.backend?.overrideFile,
    notes: secrets.notes,
  }
}

/**
 * The workspace's HTTP backend as Terraform's and OpenTofu's `http` backend reads it from the
 * environment: never as arguments, where other local users could read the password.
 */
export function backendEnv(spec: JobSpec): Record<string, string> {
  const backend = spec.terraform.backend
  if (backend === null) return {}
  return {
    TF_HTTP_ADDRESS: backend.address,
    TF_HTTP_LOCK_ADDRESS: backend.address,
    TF_HTTP_UNLOCK_ADDRESS: backend.address,
    TF_HTTP_LOCK_METHOD: 'LOCK',
    TF_HTTP_UNLOCK_METHOD: 'UNLOCK',
    TF_HTTP_USERNAME: backend.username,
    TF_HTTP_PASSWORD: backend.password,
  }
}

export function isTerraformApp(app: string): boolean {
  return app === 'terraform' || app === 'tofu'
}
