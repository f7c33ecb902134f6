import type { JobSpec } from '@flagman/contract'

/** What an app adapter produces: the program, its arguments and its own env additions. */
export interface AppCommand {
  program: string
  args: string[]
  env: Record<string, string>
  /** Keeps stdin open so the job can answer the program's questions. */
  stdin?: boolean
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

export function varSecretPairs(spec: JobSpec): string[] {
  return spec.varSecrets.map((secret) => `${secret.name}=${secret.value}`)
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
