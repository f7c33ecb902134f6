interface HasId {
  id: number
}

/**
 * The project to open: the one named in the URL, else the one used last on this browser, else
 * the first in the list. Ids that are not in the list are skipped.
 */
export function chooseProject<P extends HasId>(
  projects: readonly P[],
  urlProjectId: number | null,
  storedProjectId: number | null,
): P | null {
  for (const id of [urlProjectId, storedProjectId]) {
    if (id === null) continue
    const found = projects.find((project) => project.id === id)
    if (found) return found
  }
  return projects[0] ?? null
}

/** The project to open after `deletedId` is gone: the first remaining one. */
export function projectAfterDelete<P extends HasId>(
  projects: readonly P[],
  deletedId: number,
): P | null {
  return projects.find((project) => project.id !== deletedId) ?? null
}
