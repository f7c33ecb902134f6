import { useTranslation } from 'react-i18next'

/**
 * Dates, numbers and durations as the shown language writes them. The console's language
 * codes (`pt-br`, `zh-tw`) are valid BCP 47 tags, so Intl takes them as they are.
 */

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>()
const numberFormats = new Map<string, Intl.NumberFormat>()

function dateTimeFormat(language: string): Intl.DateTimeFormat {
  let format = dateTimeFormats.get(language)
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'medium' })
    dateTimeFormats.set(language, format)
  }
  return format
}

function unitFormat(language: string, unit: 'hour' | 'minute' | 'second'): Intl.NumberFormat {
  const key = `${language}|${unit}`
  let format = numberFormats.get(key)
  if (!format) {
    format = new Intl.NumberFormat(language, { style: 'unit', unit, unitDisplay: 'narrow' })
    numberFormats.set(key, format)
  }
  return format
}

/** A timestamp as date and time; '—' when there is none or it can not be read. */
export function formatDateTime(
  value: string | number | Date | null | undefined,
  language: string,
): string {
  if (value === null || value === undefined || value === '') return '—'
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? '—' : dateTimeFormat(language).format(date)
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value)
}

/** Whole seconds between two instants, never negative; null when either can not be read. */
export function elapsedSeconds(start: string, end: string | number): number | null {
  const from = new Date(start).getTime()
  const to = typeof end === 'number' ? end : new Date(end).getTime()
  if (Number.isNaN(from) || Number.isNaN(to)) return null
  return Math.max(0, Math.floor((to - from) / 1000))
}

/** A duration in the language's short units: "1h 2min 5s" in English, "1 Std. 2 Min. 5 s" in German. */
export function formatDuration(seconds: number, language: string): string {
  const hours = Math.floor(seconds / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  const rest = seconds % 60
  const parts: string[] = []
  if (hours > 0) parts.push(unitFormat(language, 'hour').format(hours))
  if (hours > 0 || minutes > 0) parts.push(unitFormat(language, 'minute').format(minutes))
  parts.push(unitFormat(language, 'second').format(rest))
  return parts.join(' ')
}

/** The formatters bound to the shown language. */
export function useFormat() {
  const { i18n } = useTranslation()
  const language = i18n.language || 'en'
  return {
    language,
    dateTime: (value: string | number | Date | null | undefined) => formatDateTime(value, language),
    number: (value: number) => formatNumber(value, language),
    duration: (seconds: number) => formatDuration(seconds, language),
  }
}
