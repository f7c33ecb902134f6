/** What the task parameters text of the integration form holds. */
export type TaskParamsParse =
  { ok: true; value: Record<string, unknown> | null } | { ok: false; problem: 'json' | 'object' }

/** Reads the task parameters text: empty is none, otherwise a JSON object. */
export function parseTaskParams(text: string): TaskParamsParse {
  if (text.trim() === '') return { ok: true, value: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { ok: false, problem: 'json' }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, problem: 'object' }
  }
  return { ok: true, value: parsed as Record<string, unknown> }
}

/** The text the form shows for stored task parameters. */
export function formatTaskParams(value: Record<string, unknown> | null): string {
  if (!value || Object.keys(value).length === 0) return ''
  return JSON.stringify(value, null, 2)
}
