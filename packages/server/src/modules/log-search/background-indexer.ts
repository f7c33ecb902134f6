/*
 * The loop that fills a search index in the background, in batches, so that storing a log
 * line never waits for the index: turns of at most TURN_BUDGET_MS, a short pause between
 * turns while work is waiting, a long one when there is none.
 */

/** Time one turn may hold the database before letting other work in. */
const TURN_BUDGET_MS = 50
const IDLE_DELAY_MS = 1_000
const BUSY_DELAY_MS = 10
/**
 * While tasks are storing log lines, the database is theirs: the indexer takes one batch per
 * pause (a few per cent of the time) and catches up once they are quiet; meanwhile searches
 * scan the lines it has not reached.
 */
const LOGS_FLOWING_DELAY_MS = 250
const LOGS_QUIET_AFTER_MS = 500

export interface IndexerOptions {
  /** Whether tasks stored log lines within the last `withinMs` milliseconds. */
  logsStoredWithin: (withinMs: number) => boolean
  onError: (error: unknown) => void
}

export interface Indexer {
  stop(): void
}

/**
 * Runs `indexNextBatch` (which answers whether more is waiting) until stopped; errors are
 * reported and the work retried later.
 */
export function startIndexer(
  indexNextBatch: () => Promise<boolean>,
  options: IndexerOptions,
): Indexer {
  let timer: NodeJS.Timeout | undefined
  let stopped = false
  const turn = async () => {
    let more = false
    const flowing = options.logsStoredWithin(LOGS_QUIET_AFTER_MS)
    try {
      const started = Date.now()
      while (!stopped && Date.now() - started < TURN_BUDGET_MS) {
        more = await indexNextBatch()
        if (!more || flowing) break
      }
    } catch (error) {
      options.onError(error)
    }
    const delay = !more ? IDLE_DELAY_MS : flowing ? LOGS_FLOWING_DELAY_MS : BUSY_DELAY_MS
    if (!stopped) timer = setTimeout(() => void turn(), delay)
    timer?.unref()
  }
  timer = setTimeout(() => void turn(), 0)
  timer.unref()
  return {
    stop() {
      stopped = true
      clearTimeout(timer)
    },
  }
}
