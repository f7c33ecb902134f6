import type { JobSpec } from '@flagman/contract'

/** What an app adapter produces: the program, its arguments and its own env additions. */
export interface AppCommand {
  program: string
  args: string[]
  env: Record<string, string>
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
