import { Cron, type CronOptions } from 'croner'

/**
 * How every cron expression is read: five fields (minute, hour, day of month, month, day of
 * week) or a descriptor such as @hourly, without a seconds field, evaluated in UTC.
 */
export const CRON_OPTIONS = { mode: '5-part', timezone: 'UTC' } as const satisfies CronOptions

/**
 * Checks a cron expression. Returns the parser's reason when it is not valid. The API and
 * the schedule clock both use these options, so they can never disagree on what is valid.
 */
export function cronError(expression: string): string | null {
  const value = expression.trim()
  if (value === '') return 'the expression is empty'
  try {
    new Cron(value, { ...CRON_OPTIONS, paused: true })
    return null
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^CronPattern: /, '') : String(error)
  }
}
