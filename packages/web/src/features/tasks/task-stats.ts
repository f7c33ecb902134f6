import type { StatsRow } from '@flagman/contract'

/** The chart's date ranges and their length in days, as in the spec. */
export const STATS_RANGES = { week: 7, month: 30, year: 365 } as const
export type StatsRange = keyof typeof STATS_RANGES

/** The statuses drawn as lines, in legend order. */
export const STATS_STATUSES = ['success', 'error', 'stopped'] as const
export type StatsStatus = (typeof STATS_STATUSES)[number]

export interface StatsSeries {
  /** Days as YYYY-MM-DD, oldest first. */
  days: string[]
  counts: Record<StatsStatus, number[]>
}

const DAY_MS = 24 * 60 * 60 * 1000

function isoDay(time: number): string {
  return new Date(time).toISOString().slice(0, 10)
}

/** First day (UTC) of a range ending today, as the `start` query of the stats endpoint. */
export function rangeStart(range: StatsRange, now: Date): string {
  return isoDay(now.getTime() - (STATS_RANGES[range] - 1) * DAY_MS)
}

/**
 * One point per day from the range's first day to today, so the lines start and end at the
 * range's edges; days without tasks count zero.
 */
export function statsSeries(rows: StatsRow[], range: StatsRange, now: Date): StatsSeries {
  const byDay = new Map(rows.map((row) => [row.date, row.count_by_status]))
  const total = STATS_RANGES[range]
  const first = Date.parse(`${rangeStart(range, now)}T00:00:00.000Z`)
  const days: string[] = []
  const counts: Record<StatsStatus, number[]> = { success: [], error: [], stopped: [] }
  for (let index = 0; index < total; index += 1) {
    const day = isoDay(first + index * DAY_MS)
    days.push(day)
    const row = byDay.get(day)
    for (const status of STATS_STATUSES) counts[status].push(row?.[status] ?? 0)
  }
  return { days, counts }
}

/** Totals per status over the series, for the chart's text alternative. */
export function statsTotals(series: StatsSeries): Record<StatsStatus, number> {
  const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)
  return {
    success: sum(series.counts.success),
    error: sum(series.counts.error),
    stopped: sum(series.counts.stopped),
  }
}
