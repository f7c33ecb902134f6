const formats = new Map<string, Intl.DateTimeFormat>()

/** A calendar day (`YYYY-MM-DD`) as the shown language writes it, without time or time zone. */
export function formatDate(day: string, language: string): string {
  let format = formats.get(language)
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'long', timeZone: 'UTC' })
    formats.set(language, format)
  }
  const date = new Date(`${day}T00:00:00Z`)
  return Number.isNaN(date.getTime()) ? day : format.format(date)
}
