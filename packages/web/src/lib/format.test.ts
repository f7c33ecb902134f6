import { describe, expect, it } from 'vitest'
import { elapsedSeconds, formatDateTime, formatDuration, formatNumber } from './format'

describe('locale formatting', () => {
  const instant = '2024-03-05T14:07:09Z'

  it('writes dates as the shown language does', () => {
    const en = formatDateTime(instant, 'en')
    const de = formatDateTime(instant, 'de')
    expect(en).toMatch(/Mar 5, 2024/)
    expect(de).toMatch(/05\.03\.2024/)
    expect(formatDateTime(instant, 'zh-cn')).toMatch(/2024年3月5日/)
    expect(formatDateTime(instant, 'pt-br')).toMatch(/05\/03\/2024|5 de mar\. de 2024/)
  })

  it('shows a dash for a missing or unreadable date', () => {
    expect(formatDateTime(null, 'en')).toBe('—')
    expect(formatDateTime('', 'de')).toBe('—')
    expect(formatDateTime('not a date', 'de')).toBe('—')
  })

  it('writes numbers as the shown language does', () => {
    expect(formatNumber(1234567.5, 'en')).toBe('1,234,567.5')
    expect(formatNumber(1234567.5, 'de')).toBe('1.234.567,5')
  })

  it('writes durations in the language’s short units', () => {
    expect(formatDuration(5, 'en')).toBe('5s')
    expect(formatDuration(65, 'en')).toBe('1m 5s')
    expect(formatDuration(3725, 'en')).toBe('1h 2m 5s')
    expect(formatDuration(65, 'de')).toMatch(/^1\sMin\. 5\s(s|Sek\.)$/)
  })

  it('counts whole seconds between two instants, never below zero', () => {
    expect(elapsedSeconds('2024-01-01T00:00:00Z', '2024-01-01T00:01:05.900Z')).toBe(65)
    expect(elapsedSeconds('2024-01-01T00:00:10Z', '2024-01-01T00:00:00Z')).toBe(0)
    expect(elapsedSeconds('nope', Date.now())).toBeNull()
  })
})
