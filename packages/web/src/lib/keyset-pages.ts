/*
 * Keyset paging of the server's newest-first lists (`limit` and `before_id`): each page asks
 * for the rows older than the last one shown, which the server reads as one index range
 * however long the history is.
 */

/** The query of the page after `cursor` (none: the first page). */
export function keysetQuery(limit: number, cursor: number | undefined) {
  return {
    limit: String(limit),
    ...(cursor === undefined ? {} : { before_id: String(cursor) }),
  }
}

/**
 * The cursor of the page after `last`: the id of its oldest row, or undefined when the page
 * was not full, as then there is nothing older.
 */
export function nextCursor<T extends { id?: number }>(
  last: readonly T[],
  limit: number,
): number | undefined {
  return last.length < limit ? undefined : last[last.length - 1]?.id
}

/** The rows of every page loaded so far, in order. */
export function allRows<T>(data: { pages: readonly (readonly T[])[] } | undefined): T[] {
  return data ? data.pages.flat() : []
}
