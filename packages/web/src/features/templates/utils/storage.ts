import { readStorage, writeStorage } from '../../../lib/storage'

const lastViewKey = (projectId: number) => `project${projectId}__lastVisitedViewId`
const hiddenColumnsKey = (table: string) => `table__${table}__hiddenColumns`

/** The view of the template list visited last in the project; `null` is the All tab. */
export function readLastView(projectId: number): number | null {
  const value = Number(readStorage(lastViewKey(projectId)))
  return Number.isInteger(value) && value > 0 ? value : null
}

export function storeLastView(projectId: number, viewId: number | null): void {
  writeStorage(lastViewKey(projectId), viewId === null ? null : String(viewId))
}

export function readHiddenColumns(table: string): string[] {
  try {
    const value: unknown = JSON.parse(readStorage(hiddenColumnsKey(table)) ?? '[]')
    return Array.isArray(value) ? value.filter((item) => typeof item === 'string') : []
  } catch {
    return []
  }
}

export function storeHiddenColumns(table: string, hidden: readonly string[]): void {
  writeStorage(hiddenColumnsKey(table), hidden.length > 0 ? JSON.stringify(hidden) : null)
}
