const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const

/**
 * A size in bytes as the shown language writes it, in decimal units (1 kB = 1000 bytes) so the
 * unit names Intl gives are exact: "512 bytes", "1.5 kB", "12 MB". Bytes are spelled out, as
 * their short form is no shorter in most languages.
 */
export function formatSize(bytes: number, language: string): string {
  let value = Math.max(0, bytes)
  let unit = 0
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000
    unit += 1
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value)
}
