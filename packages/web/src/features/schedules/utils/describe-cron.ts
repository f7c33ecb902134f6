import type { TFunction } from 'i18next'
import { parseCron } from './cron-modes'
import { cronSentence } from './cron-text'

const pad = (value: number) => String(value).padStart(2, '0')

/** Sunday of a week whose days are formatted for their names (any week would do). */
const SUNDAY = Date.UTC(2024, 0, 7, 12)

/** The weekday's name in the language (0 is Sunday). */
export function weekdayName(weekday: number, language: string): string {
  return new Intl.DateTimeFormat(language, { weekday: 'long', timeZone: 'UTC' }).format(
    new Date(SUNDAY + weekday * 86_400_000),
  )
}

/** The month's name in the language (1 is January). */
export function monthName(month: number, language: string): string {
  return new Intl.DateTimeFormat(language, { month: 'long', timeZone: 'UTC' }).format(
    new Date(Date.UTC(2024, month - 1, 1, 12)),
  )
}

/**
 * A sentence saying when an expression runs: the console's own wording for the shapes the
 * timing modes write and a few common ones, cronstrue's for others (given its loaded locale);
 * an expression neither can read is shown as it is.
 */
export function describeCron(
  t: TFunction<'schedules'>,
  expression: string,
  language: string,
  cronLocale: string | null = null,
): string {
  const trimmed = expression.trim()
  if (/^\*\s+\*\s+\*\s+\*\s+\*$/.test(trimmed)) return t('describe.everyMinute')
  const every = /^\*\/([1-9]\d?)\s+\*\s+\*\s+\*\s+\*$/.exec(trimmed)
  if (every) return t('describe.everyNMinutes', { n: Number(every[1]) })
  const selection = parseCron(trimmed)
  const time = `${pad(selection.hour)}:${pad(selection.minute)}`
  switch (selection.mode) {
    case 'hourly':
      return t('describe.hourly', { minute: pad(selection.minute) })
    case 'daily':
      return t('describe.daily', { time })
    case 'weekly':
      return t('describe.weekly', { weekday: weekdayName(selection.weekday, language), time })
    case 'monthly':
      return t('describe.monthly', { day: selection.day, time })
    case 'yearly':
      return t('describe.yearly', {
        date: new Intl.DateTimeFormat(language, {
          month: 'long',
          day: 'numeric',
          timeZone: 'UTC',
        }).format(new Date(Date.UTC(2024, selection.month - 1, selection.day, 12))),
        time,
      })
    case 'raw':
      return (cronLocale === null ? null : cronSentence(trimmed, cronLocale)) ?? trimmed
  }
}

/** A UTC timestamp as the language writes date and time, read in a time zone. */
export function formatInZone(timestamp: string, language: string, timeZone?: string): string {
  const date = new Date(timestamp)
  if (Number.isNaN(date.getTime())) return '—'
  try {
    return new Intl.DateTimeFormat(language, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone,
    }).format(date)
  } catch {
    // A zone the browser does not know: the browser's own zone still tells the time.
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(
      date,
    )
  }
}

/** The browser's time zone. */
export function browserTimeZone(): string {
  return new Intl.DateTimeFormat().resolvedOptions().timeZone
}

/** Every time zone the browser knows, for the time zone field. */
export function timeZoneOptions(): string[] {
  const zones =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
  return zones.includes('UTC') ? [...zones] : ['UTC', ...zones]
}
