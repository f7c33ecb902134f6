import type { Database } from '@flagman/db'
import { outsideEnv } from '@flagman/executor'
import type { Kysely } from 'kysely'

export interface DeliveredTask {
  integration_id: number | null
  /** The task's variables (JSON text), where the receiver put the extracted values. */
  environment: string | null
}

function variablesOf(text: string | null): Record<string, unknown> {
  if (!text) return {}
  try {
    const value: unknown = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/**
 * The process environment a task started by a webhook delivery gets from it: each variable
 * the integration's extracted values name, with the value the task carries for it. Names the
 * process environment policy keeps from outside values (PATH, LD_PRELOAD, BASH_ENV, PYTHON*,
 * ANSIBLE_*, GIT_* …) are left out, and so are `reserved` names (the environment's secret
 * variables, which shell apps read under their own name); all still reach the task as extra
 * variables.
 */
export async function deliveryEnv(
  db: Kysely<Database>,
  task: DeliveredTask,
  reserved: readonly string[] = [],
): Promise<Record<string, string>> {
  if (task.integration_id === null) return {}
  const variables = variablesOf(task.environment)
  const extracted: Record<string, unknown> = {}
  const names = await db
    .selectFrom('integration_extract_value')
    .select('variable')
    .where('integration_id', '=', task.integration_id)
    .execute()
  for (const { variable: name } of names) {
    if (name !== '' && Object.hasOwn(variables, name) && !reserved.includes(name)) {
      extracted[name] = variables[name]
    }
  }
  return outsideEnv(extracted).env
}
