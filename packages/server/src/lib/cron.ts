import { Cron, type CronOptions } from 'croner'

/**
 * How every cron expression is read: five fields (minute, hour, day of month, month, day of
 * week) or a descriptor such as @hourly, without a seconds field, evaluated in UTC unless a
 * time zone is given.
 */
export const CRON_OPTIONS = { mode: '5-part', timezone: 'UTC' } as const satisfies CronOptions

/** Whether `name` is a time zone the server knows (an IANA name such as `Europe/Berlin`). */
export function isTimeZone(name: string): boolean {
  if (name.trim() === '' || name !== name.trim()) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}

/** A paused cron job for the expression in the time zone; throws when either is invalid. */
export function cronFor(expression: string, timezone = 'UTC'): Cron {
  // The parser would only notice an unknown time zone when asked for a time.
  if (!isTimeZone(timezone)) throw new Error(`unknown time zone "${timezone}"`)
  return new Cron(expression.trim(), { ...CRON_OPTIONS, timezone, paused: true })
}

/**
 * Checks a cron expression. Returns the parser's reason when it is not valid. The API and
 * the schedule clock both use these options, so they can never disagree on what is valid.
 */
export function cronError(expression: string, timezone = 'UTC'): string | null {
  const value = expression.trim()
  if (value === '') return 'the expression is empty'
  try {
    cronFor(value, timezone)
    return null
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error)
  }
}

/** The next `count` times after `from` that the expression names in the time zone. */
export function nextRunTimes(
  expression: string,
  timezone: string,
  count: number,
  from: Date,
): Date[] {
  return cronFor(expression, timezone).nextRuns(count, from)
}
