import { describe, expect, it } from 'vitest'
import { buildCron, type CronSelection, DEFAULT_FIELDS, parseCron } from './cron-modes'

describe('parseCron', () => {
  it.each([
    ['15 3 1 6 *', { mode: 'yearly', minute: 15, hour: 3, day: 1, month: 6 }],
    ['0 22 31 * *', { mode: 'monthly', minute: 0, hour: 22, day: 31 }],
    ['30 9 * * 1', { mode: 'weekly', minute: 30, hour: 9, weekday: 1 }],
    ['0 0 * * 0', { mode: 'weekly', minute: 0, hour: 0, weekday: 0 }],
    ['15 3 * * *', { mode: 'daily', minute: 15, hour: 3 }],
    ['5 * * * *', { mode: 'hourly', minute: 5 }],
  ])('reads %s as its timing mode', (expression, expected) => {
    expect(parseCron(expression)).toEqual({ ...DEFAULT_FIELDS, ...expected })
  })

  it.each([
    '* * * * *',
    '7 3 * * *',
    '0 24 * * *',
    '0 3 0 * *',
    '0 3 1 13 *',
    '0 3 * * 7',
    '05 3 * * *',
    '0 3 1 * 1',
    '0 1-5 * * *',
    '*/5 * * * *',
    '0,30 * * * *',
    '@hourly',
    '0 0 * *',
    '',
  ])('falls back to raw for %j', (expression) => {
    expect(parseCron(expression).mode).toBe('raw')
  })

  it('ignores surrounding and repeated spaces', () => {
    expect(parseCron('  0  3 * * *  ')).toMatchObject({ mode: 'daily', hour: 3 })
  })
})

describe('buildCron', () => {
  const fields = { minute: 45, hour: 23, day: 28, month: 12, weekday: 6 }
  it.each([
    ['yearly', '45 23 28 12 *'],
    ['monthly', '45 23 28 * *'],
    ['weekly', '45 23 * * 6'],
    ['daily', '45 23 * * *'],
    ['hourly', '45 * * * *'],
  ] as const)('writes the %s shape', (mode, expected) => {
    const selection: CronSelection = { mode, ...fields }
    expect(buildCron(selection)).toBe(expected)
    const read = parseCron(expected)
    expect(read.mode).toBe(mode)
    expect(buildCron(read)).toBe(expected)
  })

  it('leaves raw expressions to the user', () => {
    expect(buildCron({ mode: 'raw', ...fields })).toBeNull()
  })
})
