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

/** terraform and tofu stage command lines; `-var` values follow the shell apps' formatting. */
export function buildTerraformCommands(spec: JobSpec): TerraformCommands {
  const program = spec.appPath !== '' ? spec.appPath : spec.app
  const prefix = spec.appArgs ?? []
  const tf = spec.terraform
  const init = [...prefix, 'init', '-lock=false']
  if (tf.upgrade) init.push('-upgrade')
  if (tf.reconfigure) init.push('-reconfigure')
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
    ...vars,
    ...spec.templateArgs,
    ...spec.taskArgs,
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
