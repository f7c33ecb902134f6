/** A task as the queue sees it. */
export interface QueueItem {
  taskId: number
  projectId: number
  templateId: number
}

export interface QueueLimits {
  /** Server-wide active tasks; 0 = unlimited. */
  global: number
  /** Per project; missing or 0 = unlimited. */
  project: ReadonlyMap<number, number>
}

/**
 * Which queued tasks may start now, in queue order. A task is held back when the server or
 * its project is at its limit, or when another task of its template is active. A project
 * at its limit holds all of its tasks, so each project's tasks start in the order they came.
 */
export function pickRunnable(
  queue: readonly QueueItem[],
  active: readonly QueueItem[],
  limits: QueueLimits,
): QueueItem[] {
  let total = active.length
  const perProject = new Map<number, number>()
  const templates = new Set<number>()
  for (const a of active) {
    perProject.set(a.projectId, (perProject.get(a.projectId) ?? 0) + 1)
    templates.add(a.templateId)
  }
  const picked: QueueItem[] = []
  for (const item of queue) {
    if (limits.global > 0 && total >= limits.global) break
    const projectMax = limits.project.get(item.projectId) ?? 0
    const inProject = perProject.get(item.projectId) ?? 0
    if (projectMax > 0 && inProject >= projectMax) continue
    if (templates.has(item.templateId)) continue
    picked.push(item)
    total += 1
    perProject.set(item.projectId, inProject + 1)
    templates.add(item.templateId)
  }
  return picked
}
