import { parseJsonObject } from '@flagman/contract'

/** One variable as a table row. Values are edited as text. */
export interface VariableRow {
  key: number
  name: string
  value: string
  /**
   * The value as the JSON held it, when it was not a string (a number, true, false, null):
   * kept as it was unless its text is changed.
   */
  original?: unknown
}

export type TableConversion =
  | { ok: true; rows: VariableRow[] }
  | { ok: false; reason: 'invalid'; message: string }
  | { ok: false; reason: 'nested' }

let nextKey = 1

export function newRowKey(): number {
  return nextKey++
}

/**
 * Turns JSON text into table rows. Refused when the text is not a JSON object, or when a value
 * is itself an object or a list, which a table of names and values can not show.
 */
export function jsonToRows(text: string): TableConversion {
  const parsed = parseJsonObject(text)
  if (!parsed.ok) return { ok: false, reason: 'invalid', message: parsed.reason }
  const rows: VariableRow[] = []
  for (const [name, value] of Object.entries(parsed.value)) {
    if (typeof value === 'object' && value !== null) return { ok: false, reason: 'nested' }
    rows.push(
      typeof value === 'string'
        ? { key: newRowKey(), name, value }
        : { key: newRowKey(), name, value: String(value), original: value },
    )
  }
  return { ok: true, rows }
}

/** The JSON text of table rows; rows without a name are left out. */
export function rowsToJson(rows: readonly VariableRow[]): string {
  const object: Record<string, unknown> = {}
  for (const row of rows) {
    const name = row.name.trim()
    if (name === '') continue
    object[name] =
      row.original !== undefined && String(row.original) === row.value ? row.original : row.value
  }
  return JSON.stringify(object, null, 2)
}
