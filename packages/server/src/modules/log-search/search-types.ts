import type { LogSearchMatch, ProjectLogSearchMatch } from '@flagman/contract'

/** A search within one task's log. */
export interface TaskSearch {
  taskId: number
  text: string
  /** Matches wanted; one more is looked for to tell whether the answer is cut. */
  limit: number
}

/** A search across the logs of a project's tasks. */
export interface ProjectSearch {
  projectId: number
  text: string
  limit: number
  templateId?: number
  /** ISO instants bounding the tasks' creation: [from, to). */
  from?: string
  to?: string
}

/** What a search found: up to limit + 1 matches, and whether it gave up before the end. */
export interface Found<M> {
  matches: M[]
  timedOut: boolean
}

/** One database's way of searching logs. */
export interface LogSearcher {
  searchTask(search: TaskSearch): Promise<Found<LogSearchMatch>>
  searchProject(search: ProjectSearch): Promise<Found<ProjectLogSearchMatch>>
}

/** How long one search may run on the databases that can stop a statement. */
export const SEARCH_TIME_BUDGET_MS = 1000

/**
 * How many lines a search may read where the database can not stop a statement in time
 * (SQLite runs in the server's own thread): index candidates and lines scanned.
 */
export const SEARCH_ROW_BUDGET = 100_000
