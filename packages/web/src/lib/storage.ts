/**
 * Values the console keeps in the browser. Access goes through these helpers because storage can
 * be unavailable (private windows, disabled cookies) and the console must keep working then.
 */
export const storageKeys = {
  lang: 'lang',
  darkMode: 'darkMode',
  projectId: 'projectId',
  lastProjectPage: (projectId: number) => `project${projectId}__lastVisitedPage`,
} as const

export function readStorage(key: string): string | null {
  try {
    return window.localStorage.getItem(key)
  } catch {
    return null
  }
}

export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key)
    else window.localStorage.setItem(key, value)
  } catch {
    // Preferences are a convenience; losing them must not break the page.
  }
}

export function readStoredProjectId(): number | null {
  const value = Number(readStorage(storageKeys.projectId))
  return Number.isInteger(value) && value > 0 ? value : null
}

export function storeProjectId(projectId: number | null): void {
  writeStorage(storageKeys.projectId, projectId === null ? null : String(projectId))
}
