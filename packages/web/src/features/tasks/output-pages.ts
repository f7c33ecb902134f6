/** Lines fetched in one request as the log is scrolled. */
export const OUTPUT_PAGE_LINES = 1000
/** Logs up to this many lines are searched whole in the console; longer ones are not loaded whole. */
export const WHOLE_LOG_SEARCH_LIMIT = 10_000

/** One page of a task's log: the lines numbered `offset` to `offset + limit - 1`. */
export interface OutputPageSlot {
  /** 0-based page number. */
  index: number
  /** 1-based number of its first line, as the output route's `offset`. */
  offset: number
  limit: number
}

/**
 * The pages holding rows `first` to `last` (0-based, inclusive) of a log of `total` lines. The
 * last page is as long as the log is so far, so it is asked for again once the log grows.
 */
export function pagesFor(first: number, last: number, total: number): OutputPageSlot[] {
  if (total <= 0) return []
  const from = Math.max(0, Math.min(first, total - 1))
  const to = Math.max(from, Math.min(last, total - 1))
  const slots: OutputPageSlot[] = []
  for (
    let index = Math.floor(from / OUTPUT_PAGE_LINES);
    index * OUTPUT_PAGE_LINES <= to;
    index += 1
  ) {
    const start = index * OUTPUT_PAGE_LINES
    slots.push({ index, offset: start + 1, limit: Math.min(OUTPUT_PAGE_LINES, total - start) })
  }
  return slots
}

/** The rows a freshly opened log shows: its end, where a running task's output arrives. */
export function lastPageRows(total: number): { first: number; last: number } {
  return { first: Math.max(0, total - OUTPUT_PAGE_LINES), last: Math.max(0, total - 1) }
}
