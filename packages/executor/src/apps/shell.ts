import type { JobSpec } from '@flagman/contract'
import type { AppCommand } from './common.js'
import { extraVarPairs, taskDetailsEnv, varSecretEnv } from './common.js'

const PROGRAMS: Record<string, { program: string; prefix: string[] }> = {
  bash: { program: 'bash', prefix: [] },
  python: { program: 'python3', prefix: [] },
  powershell: { program: 'pwsh', prefix: ['-File'] },
}

/**
 * bash, python, powershell and any other app id (pulumi, administrator apps): the script
 * first, then template args, extra vars and task args, in that order. The executor hands in
 * the spec with `playbook` already resolved to the script's absolute path (for pulumi, the
 * program word as given). The task details reach the process as `SEMAPHORE_TASK_DETAILS_*`
 * variables and the var secrets as variables of their own name, never as arguments.
 */
export function buildShellCommand(spec: JobSpec): AppCommand {
  const known = Object.hasOwn(PROGRAMS, spec.app) ? PROGRAMS[spec.app] : undefined
  const program = spec.appPath !== '' ? spec.appPath : (known?.program ?? spec.app)
  const prefix = spec.appArgs ?? known?.prefix ?? []
  const args = [...prefix]
  if (spec.playbook !== '') args.push(spec.playbook)
  args.push(...spec.templateArgs, ...extraVarPairs(spec), ...spec.taskArgs)
  const secrets = varSecretEnv(spec, 'shell')
  return {
    program,
    args,
    env: { ...secrets.env, ...taskDetailsEnv(spec) },
    ...(secrets.notes.length > 0 ? { notes: secrets.notes } : {}),
  }
}
