/*
 * Where waiting tasks go next: a pure plan over a snapshot of the task table, so the same
 * decision is made by any server process and can be tested without one.
 */

/** A task waiting in the queue, oldest first. */
export interface WaitingTask {
  taskId: number
  projectId: number
  templateId: number
  /** The template's required runner tag; null: any runner without tags, or this server. */
  runnerTag: string | null
}

/** A task holding a slot: starting, running, waiting for confirmation, stopping… */
export interface BusyTask {
  taskId: number
  projectId: number
  templateId: number
  /** null: run by a server process itself. */
  runnerId: number | null
}

export interface RunnerSlots {
  id: number
  /** null: a global runner. */
  projectId: number | null
  tags: readonly string[]
  /** 0 = unlimited. */
  maxParallelTasks: number
  /** Active and heard from within the timeout. */
  available: boolean
}

export interface DispatchLimits {
  /** All tasks at once, local and on runners; 0 = unlimited. */
  global: number
  /**
   * Busy tasks the global limit counts (default: all of `busy`). With several server
   * instances the limit is each one's own: their own tasks and the runners'.
   */
  globalBusy?: number
  /** Per project; missing or 0 = unlimited. */
  project: ReadonlyMap<number, number>
  /** Tasks without a tag may run on the server itself. */
  localExecution: boolean
}

export type Placement =
  { taskId: number; target: 'local' } | { taskId: number; target: 'runner'; runnerId: number }

export interface DispatchPlan {
  placements: Placement[]
  /** Why each task that stays waiting does so. */
  reasons: Map<number, string>
}

const fits = (count: number, max: number) => max <= 0 || count < max

/**
 * Places waiting tasks in queue order. A task is held back while the server or its project
 * is at its limit, or while another task of its template is busy (one at a time per
 * template). A task with a runner tag runs only on an available runner carrying that tag;
 * one without runs on an untagged runner (the project's own before global ones, the least
 * loaded first) or, when none has a free slot and local execution is on, on the server.
 */
export function planDispatch(
  waiting: readonly WaitingTask[],
  busy: readonly BusyTask[],
  runners: readonly RunnerSlots[],
  limits: DispatchLimits,
): DispatchPlan {
  let total = limits.globalBusy ?? busy.length
  const perProject = new Map<number, number>()
  const perRunner = new Map<number, number>()
  const templates = new Set<number>()
  for (const b of busy) {
    perProject.set(b.projectId, (perProject.get(b.projectId) ?? 0) + 1)
    if (b.runnerId !== null) perRunner.set(b.runnerId, (perRunner.get(b.runnerId) ?? 0) + 1)
    templates.add(b.templateId)
  }
  const placements: Placement[] = []
  const reasons = new Map<number, string>()

  for (const task of waiting) {
    if (!fits(total, limits.global)) {
      reasons.set(task.taskId, `The server already runs its maximum of ${limits.global} tasks`)
      continue
    }
    const projectMax = limits.project.get(task.projectId) ?? 0
    const inProject = perProject.get(task.projectId) ?? 0
    if (!fits(inProject, projectMax)) {
      reasons.set(task.taskId, `The project already runs its maximum of ${projectMax} tasks`)
      continue
    }
    if (templates.has(task.templateId)) {
      reasons.set(task.taskId, 'Another task of this template is still running')
      continue
    }
    const tag = task.runnerTag
    const matching = runners.filter(
      (r) =>
        r.available &&
        (r.projectId === null || r.projectId === task.projectId) &&
        (tag ? r.tags.includes(tag) : r.tags.length === 0),
    )
    const free = matching
      .filter((r) => fits(perRunner.get(r.id) ?? 0, r.maxParallelTasks))
      .sort(
        (a, b) =>
          Number(a.projectId === null) - Number(b.projectId === null) ||
          (perRunner.get(a.id) ?? 0) - (perRunner.get(b.id) ?? 0) ||
          a.id - b.id,
      )
    const runner = free[0]
    let placement: Placement | null = null
    if (runner) placement = { taskId: task.taskId, target: 'runner', runnerId: runner.id }
    else if (!tag && limits.localExecution) placement = { taskId: task.taskId, target: 'local' }
    if (!placement) {
      reasons.set(task.taskId, waitingReason(tag, matching.length > 0))
      continue
    }
    placements.push(placement)
    total += 1
    perProject.set(task.projectId, inProject + 1)
    templates.add(task.templateId)
    if (runner) perRunner.set(runner.id, (perRunner.get(runner.id) ?? 0) + 1)
  }
  return { placements, reasons }
}

function waitingReason(tag: string | null, someAvailable: boolean): string {
  if (tag) {
    return someAvailable
      ? `Waiting for a free runner with the tag "${tag}"`
      : `Waiting for a runner with the tag "${tag}": none is active and online`
  }
  return someAvailable
    ? 'Waiting for a free runner'
    : 'Waiting for a runner: this server does not run tasks itself and no runner is active and online'
}
