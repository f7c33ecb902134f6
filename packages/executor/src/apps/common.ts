import type { JobSpec } from '@flagman/contract'

/** What an app adapter produces: the program, its arguments and its own env additions. */
export interface AppCommand {
  program: string
  args: string[]
  env: Record<string, string>
  /** Keeps stdin open so the job can answer the program's questions. */
  stdin?: boolean
  /** Lines for the task log before the program runs (variables that could not be passed). */
  notes?: string[]
}

/** Strings as they are; everything else JSON-encoded so nested values survive. */
export function formatValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value)
}

/** `name=value` pairs of the extra vars, without the server's `semaphore_vars`. */
export function extraVarPairs(spec: JobSpec): string[] {
  return Object.entries(spec.extraVars)
    .filter(([name]) => name !== 'semaphore_vars')
    .map(([name, value]) => `${name}=${formatValue(value)}`)
}

/** Names a shell can read as `$NAME`. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
/** Terraform variable names (letters, digits, `_` and `-`, not starting with a digit or `-`). */
const TERRAFORM_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/

/**
 * The var secrets as process environment variables, so that no secret value is ever on a
 * command line (where any local user can read it with `ps`):
 * - shell apps (`kind: 'shell'`) get each secret under its own name (`$token`);
 * - terraform and tofu (`kind: 'terraform'`) get `TF_VAR_{name}`, which they read as the
 *   input variable `name`.
 * A name that cannot be passed that way, or that the environment's own variables (and the
 * task metadata) already set, is left out with a note for the task log.
 */
export function varSecretEnv(
  spec: JobSpec,
  kind: 'shell' | 'terraform',
): { env: Record<string, string>; notes: string[] } {
  const env: Record<string, string> = {}
  const notes: string[] = []
  for (const { name, value } of spec.varSecrets) {
    const valid = kind === 'shell' ? ENV_NAME.test(name) : TERRAFORM_NAME.test(name)
    if (!valid) {
      notes.push(
        kind === 'shell'
          ? `Secret variable "${name}" is not passed: it is not a valid environment variable name (letters, digits and _, not starting with a digit)`
          : `Secret variable "${name}" is not passed: it is not a valid variable name (letters, digits, _ and -, not starting with a digit or -)`,
      )
      continue
    }
    const envName = kind === 'shell' ? name : `TF_VAR_${name}`
    if (Object.hasOwn(spec.env, envName)) {
      notes.push(`Secret variable "${name}" is not passed: the environment already sets ${envName}`)
      continue
    }
    env[envName] = value
  }
  return { env, notes }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** `semaphore_vars.task_details` of the extra vars, or null when the server sent none. */
export function taskDetails(spec: JobSpec): Record<string, unknown> | null {
  const vars = spec.extraVars.semaphore_vars
  return isRecord(vars) && isRecord(vars.task_details) ? vars.task_details : null
}

/** The spec with `semaphore_vars.task_details` extended by `values` (the checked-out commit). */
export function withTaskDetails(spec: JobSpec, values: Record<string, unknown>): JobSpec {
  const vars = spec.extraVars.semaphore_vars
  const details = taskDetails(spec)
  if (!isRecord(vars) || details === null) return spec
  return {
    ...spec,
    extraVars: {
      ...spec.extraVars,
      semaphore_vars: { ...vars, task_details: { ...details, ...values } },
    },
  }
}

/**
 * `SEMAPHORE_TASK_DETAILS_{KEY}` for every non-empty string, number or boolean of the task
 * details (id, username, message, url, type, versions, commit …), as shell apps receive them.
 */
export function taskDetailsEnv(spec: JobSpec): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [key, value] of Object.entries(taskDetails(spec) ?? {})) {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
      continue
    }
    const text = String(value)
    if (text !== '') env[`SEMAPHORE_TASK_DETAILS_${key.toUpperCase()}`] = text
  }
  return env
}
