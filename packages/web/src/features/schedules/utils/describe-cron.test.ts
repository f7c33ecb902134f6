import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import {
  describeCron,
  formatInZone,
  monthName,
  timeZoneOptions,
  weekdayName,
} from './describe-cron'

const describeEn = (expression: string) =>
  describeCron(i18next.getFixedT('en', 'schedules'), expression, 'en')

describe('describeCron', () => {
  it.each([
    ['15 3 * * *', 'Every day at 03:15'],
    ['5 * * * *', 'Every hour at minute 05'],
    ['0 9 * * 1', 'Every Monday at 09:00'],
    ['30 22 15 * *', 'Every month on day 15 at 22:30'],
    ['0 6 24 12 *', 'Every year on December 24 at 06:00'],
    ['* * * * *', 'Every minute'],
    ['*/10 * * * *', 'Every 10 minutes'],
  ])('describes %s', (expression, text) => {
    expect(describeEn(expression)).toBe(text)
  })

  it('describes other expressions with cronstrue in the loaded locale', async () => {
    const t = i18next.getFixedT('en', 'schedules')
    expect(describeCron(t, '0 9 * * 1-5', 'en', 'en')).toBe('At 09:00, Monday through Friday')
    await import('cronstrue/locales/de.js')
    expect(describeCron(t, '0 9 * * 1-5', 'de', 'de')).toBe('Um 09:00, Montag bis Freitag')
    // What neither reads is shown as it is.
    expect(describeCron(t, '@every 1h30m', 'en', 'en')).toBe('@every 1h30m')
  })

  it('shows other expressions as they are while no cron locale is loaded', () => {
    expect(describeEn(' 0 1-5 * * * ')).toBe('0 1-5 * * *')
    expect(describeEn('@every 1h30m')).toBe('@every 1h30m')
  })

  it('names weekdays and months in the language', () => {
    expect(weekdayName(0, 'en')).toBe('Sunday')
    expect(weekdayName(6, 'de')).toBe('Samstag')
    expect(monthName(3, 'fr')).toBe('mars')
  })
})

describe('formatInZone', () => {
  it('reads a UTC time in the given zone', () => {
    const time = '2026-03-01T12:00:00Z'
    expect(formatInZone(time, 'en', 'UTC')).toContain('12:00')
    expect(formatInZone(time, 'en', 'Asia/Tokyo')).toContain('9:00')
  })

  it('falls back for unknown zones and bad timestamps', () => {
    expect(formatInZone('2026-03-01T12:00:00Z', 'en', 'Nowhere/Land')).toMatch(/2026/)
    expect(formatInZone('not a time', 'en', 'UTC')).toBe('—')
  })
})

describe('timeZoneOptions', () => {
  it('offers UTC and the IANA zones', () => {
    const zones = timeZoneOptions()
    expect(zones).toContain('UTC')
    expect(zones).toContain('Europe/Berlin')
  })
})
