import { describe, expect, it } from 'vitest'
import { rangeStart, statsSeries, statsTotals } from './task-stats'

const NOW = new Date('2026-03-10T15:00:00.000Z')

describe('task stats series', () => {
  it('starts the week six days before today', () => {
    expect(rangeStart('week', NOW)).toBe('2026-03-04')
    expect(rangeStart('month', NOW)).toBe('2026-02-09')
    expect(rangeStart('year', NOW)).toBe('2025-03-11')
  })

  it('pads zero rows at both ends and between days with tasks', () => {
    const series = statsSeries(
      [
        { date: '2026-03-07', count_by_status: { success: 2, error: 1 }, avg_duration: 3 },
        { date: '2026-03-05', count_by_status: { stopped: 4, running: 1 }, avg_duration: 0 },
      ],
      'week',
      NOW,
    )
    expect(series.days).toEqual([
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ])
    expect(series.counts.success).toEqual([0, 0, 0, 2, 0, 0, 0])
    expect(series.counts.error).toEqual([0, 0, 0, 1, 0, 0, 0])
    expect(series.counts.stopped).toEqual([0, 4, 0, 0, 0, 0, 0])
    expect(statsTotals(series)).toEqual({ success: 2, error: 1, stopped: 4 })
  })

  it('ignores rows outside the range', () => {
    const series = statsSeries(
      [{ date: '2026-01-01', count_by_status: { success: 9 }, avg_duration: 0 }],
      'week',
      NOW,
    )
    expect(statsTotals(series).success).toBe(0)
    expect(statsSeries([], 'year', NOW).days).toHaveLength(365)
  })
})
