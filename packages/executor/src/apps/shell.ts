import type { JobSpec } from '@flagman/contract'
import type { AppCommand } from './common.js'
import { extraVarPairs, taskDetailsEnv, varSecretPairs } from './common.js'

const PROGRAMS: Record<string, { program: string; prefix: string[] }> = {
  bash: { program: 'bash', prefix: [] },
  python: { program: 'python3', prefix: [] },
  powershell: { program: 'pwsh', prefix: ['-File'] },
}

/**
 * bash, python, powershell and any other app id (pulumi, administrator apps): the script
 * first, then var secrets, template args, extra vars and task args, in that order. The task
 * details reach the process as `SEMAPHORE_TASK_DETAILS_*` variables.
 */
export function buildShellCommand(spec: JobSpec): AppCommand {
  const known = PROGRAMS[spec.app] ?? { program: spec.app, prefix: [] }
  const program = spec.appPath !== '' ? spec.appPath : known.program
  const prefix = spec.appArgs ?? known.prefix
  const args = [...prefix]
  if (spec.playbook !== '') args.push(spec.playbook)
  args.push(...varSecretPairs(spec), ...spec.templateArgs, ...extraVarPairs(spec), ...spec.taskArgs)
  return { program, args, env: taskDetailsEnv(spec) }
}
