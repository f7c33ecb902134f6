import type { JobSpec } from '@flagman/contract'
import { formatValue } from './common.js'

export interface TerraformCommands {
  program: string
  init: string[]
  workspaceList: string[]
  workspaceSelect: string[]
  plan: string[]
  apply: string[]
}

/**
 * terraform and tofu stage command lines: every stage but init gets `-destroy` when asked,
 * the template and task arguments, then `-var` for each extra var and var secret (values
 * formatted as for the shell apps).
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
  const vars: string[] = []
  for (const [name, value] of Object.entries(spec.extraVars)) {
    if (name !== 'semaphore_vars') vars.push('-var', `${name}=${formatValue(value)}`)
  }
  for (const secret of spec.varSecrets) vars.push('-var', `${secret.name}=${secret.value}`)
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
    plan: stage('plan', '-lock=false'),
    apply: stage('apply', '-auto-approve', '-lock=false'),
  }
}

export function isTerraformApp(app: string): boolean {
  return app === 'terraform' || app === 'tofu'
}
