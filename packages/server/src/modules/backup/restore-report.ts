import type { RestoreReportItem } from '@flagman/contract'
import { ignoredFields, ProjectBackup } from '@flagman/contract'

/** A place in the backup file: keys of objects and indexes of lists. */
export type FilePath = ReadonlyArray<string | number>

/**
 * Why a field the file format of Flagman does not hold is left out, for the fields that
 * deserve more than the general reason. Paths have `*` for list indexes.
 */
const REASONS: Record<string, string> = {
  secret_storages:
    'secret storages are not supported; fill in the secrets that keys and environments took from them by hand',
  'templates.*.survey_vars.*.default_value':
    'default values of survey variables are not supported; ignored',
  'integrations.*.extract_values.*.variable_type':
    'extracted values only become variables of the task (extra and environment variables); task fields are not set from them',
  'schedules.*.task_params': 'schedules carry no task parameters; ignored',
}
const GENERAL_REASON = 'not supported; ignored'

/**
 * Values of left-out fields that lose nothing: what Flagman does anyway. Besides these,
 * empty values (null, "", false, [] and {}) lose nothing wherever they are.
 */
const SAME_AS_FLAGMAN: Record<string, readonly unknown[]> = {
  'integrations.*.extract_values.*.variable_type': ['environment'],
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '' || value === false) return true
  if (Array.isArray(value)) return value.length === 0
  return isRecord(value) && Object.keys(value).length === 0
}

function valueAt(root: unknown, path: FilePath): unknown {
  let value = root
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment]
    else if (isRecord(value)) value = value[String(segment)]
    else return undefined
  }
  return value
}

/** `templates.3.vaults.0` → `templates.*.vaults.*`, the key of the tables above. */
function pattern(path: FilePath): string {
  return path.map((segment) => (typeof segment === 'number' ? '*' : segment)).join('.')
}

/** What a list item is called in a path: its name or title, else its index. */
function itemLabel(item: unknown, index: number): string {
  if (isRecord(item)) {
    for (const field of ['name', 'title']) {
      const label = item[field]
      if (typeof label === 'string' && label.trim() !== '') return label.trim()
    }
  }
  return String(index)
}

/** `['templates', 3, 'cron']` → `templates[Deploy].cron`, read against the raw file. */
export function readablePath(root: unknown, path: FilePath): string {
  let text = ''
  let value = root
  for (const segment of path) {
    if (typeof segment === 'number') {
      const item = Array.isArray(value) ? (value[segment] as unknown) : undefined
      text += `[${itemLabel(item, segment)}]`
      value = item
    } else {
      text += text === '' ? segment : `.${segment}`
      value = isRecord(value) ? value[segment] : undefined
    }
  }
  return text
}

function toFilePath(dotted: string): FilePath {
  return dotted.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment))
}

/** Where a path is in the file, as a sortable list: key positions and list indexes. */
function filePosition(root: unknown, path: FilePath): number[] {
  let value = root
  return path.map((segment) => {
    if (typeof segment === 'number') {
      value = Array.isArray(value) ? (value[segment] as unknown) : undefined
      return segment
    }
    const position = isRecord(value) ? Object.keys(value).indexOf(segment) : -1
    value = isRecord(value) ? value[segment] : undefined
    return position === -1 ? Number.MAX_SAFE_INTEGER : position
  })
}

function comparePositions(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!
  }
  return a.length - b.length
}

function isWithin(path: FilePath, prefix: FilePath): boolean {
  return prefix.length <= path.length && prefix.every((segment, i) => path[i] === segment)
}

/**
 * What a restore could not map, in the order found. Items the restore leaves out whole are
 * noted with `skip`, so that their fields are not reported one by one as well.
 */
export class RestoreReportBuilder {
  private readonly found: Array<{ path: FilePath; reason: string }> = []
  private readonly skipped: FilePath[] = []

  /** `raw` is the file as sent, before parsing dropped anything. */
  constructor(private readonly raw: unknown) {}

  /** Something mapped to something else, or left out in part. */
  note(path: FilePath, reason: string): void {
    this.found.push({ path, reason })
  }

  /** Something left out whole. */
  skip(path: FilePath, reason: string): void {
    this.note(path, reason)
    this.skipped.push(path)
  }

  /**
   * The notes and every field of the file Flagman has no place for that held a value, in the
   * order of the file.
   */
  items(): RestoreReportItem[] {
    const unmapped = ignoredFields(ProjectBackup, this.raw)
      .map(toFilePath)
      .filter((path) => !this.skipped.some((prefix) => isWithin(path, prefix)))
      .filter((path) => {
        const value = valueAt(this.raw, path)
        return !isEmpty(value) && !(SAME_AS_FLAGMAN[pattern(path)] ?? []).includes(value)
      })
      .map((path) => ({ path, reason: REASONS[pattern(path)] ?? GENERAL_REASON }))
    return [...this.found, ...unmapped]
      .map((item) => ({ ...item, position: filePosition(this.raw, item.path) }))
      .sort((a, b) => comparePositions(a.position, b.position))
      .map(({ path, reason }) => ({ path: readablePath(this.raw, path), reason }))
  }
}
