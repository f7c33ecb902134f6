/** The timing modes of the schedule form; `raw` edits the cron expression itself. */
export const CRON_MODES = ['yearly', 'monthly', 'weekly', 'daily', 'hourly', 'raw'] as const
export type CronMode = (typeof CRON_MODES)[number]

/** The selector values of the timing modes (each mode uses some of them). */
export interface CronFields {
  minute: number
  hour: number
  day: number
  month: number
  /** 0 is Sunday. */
  weekday: number
}

export interface CronSelection extends CronFields {
  mode: CronMode
}

/** What a new schedule starts with: every minute, as a raw expression. */
export const DEFAULT_CRON = '* * * * *'

export const DEFAULT_FIELDS: CronFields = { minute: 0, hour: 0, day: 1, month: 1, weekday: 1 }

function range(from: number, to: number, step = 1): number[] {
  const values: number[] = []
  for (let value = from; value <= to; value += step) values.push(value)
  return values
}

/** The values each selector offers. */
export const MINUTE_OPTIONS = range(0, 55, 5)
export const HOUR_OPTIONS = range(0, 23)
export const DAY_OPTIONS = range(1, 31)
export const MONTH_OPTIONS = range(1, 12)
export const WEEKDAY_OPTIONS = range(0, 6)

/** Which selectors a mode shows, in the order the form shows them. */
export const MODE_FIELDS: Record<CronMode, readonly (keyof CronFields)[]> = {
  yearly: ['month', 'day', 'hour', 'minute'],
  monthly: ['day', 'hour', 'minute'],
  weekly: ['weekday', 'hour', 'minute'],
  daily: ['hour', 'minute'],
  hourly: ['minute'],
  raw: [],
}

const OPTIONS: Record<keyof CronFields, readonly number[]> = {
  minute: MINUTE_OPTIONS,
  hour: HOUR_OPTIONS,
  day: DAY_OPTIONS,
  month: MONTH_OPTIONS,
  weekday: WEEKDAY_OPTIONS,
}

/** A field written the way `buildCron` writes it, and offered by its selector. */
function parseField(text: string, field: keyof CronFields): number | null {
  if (!/^(0|[1-9]\d?)$/.test(text)) return null
  const value = Number(text)
  return OPTIONS[field].includes(value) ? value : null
}

/** Reads a field of a shape: a number for the selector, or `*` for "any". */
type Slot = keyof CronFields | '*'

const SHAPES: Record<Exclude<CronMode, 'raw'>, readonly Slot[]> = {
  yearly: ['minute', 'hour', 'day', 'month', '*'],
  monthly: ['minute', 'hour', 'day', '*', '*'],
  weekly: ['minute', 'hour', '*', '*', 'weekday'],
  daily: ['minute', 'hour', '*', '*', '*'],
  hourly: ['minute', '*', '*', '*', '*'],
}

/**
 * The mode and selector values an expression has. Expressions the selectors cannot write
 * (other shapes, minutes off the 5-minute steps, lists, ranges, descriptors) are `raw`.
 */
export function parseCron(expression: string): CronSelection {
  const parts = expression.trim().split(/\s+/)
  if (parts.length === 5) {
    for (const [mode, shape] of Object.entries(SHAPES) as [CronMode, readonly Slot[]][]) {
      const fields: CronFields = { ...DEFAULT_FIELDS }
      const fits = shape.every((slot, index) => {
        const part = parts[index] ?? ''
        if (slot === '*') return part === '*'
        const value = parseField(part, slot)
        if (value === null) return false
        fields[slot] = value
        return true
      })
      if (fits) return { mode, ...fields }
    }
  }
  return { mode: 'raw', ...DEFAULT_FIELDS }
}

/** The expression of a timing mode; `null` for `raw`, whose expression is typed. */
export function buildCron(selection: CronSelection): string | null {
  if (selection.mode === 'raw') return null
  return SHAPES[selection.mode]
    .map((slot) => (slot === '*' ? '*' : String(selection[slot])))
    .join(' ')
}
