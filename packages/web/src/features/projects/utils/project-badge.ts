/** Badge colours, rotated by the project's position in the list. */
export const BADGE_COLORS = ['red', 'blue', 'orange', 'green'] as const
export type BadgeColor = (typeof BADGE_COLORS)[number]

/**
 * Initials of a project name: the first letters of the first two words, or the first two
 * letters of a single word, in upper case.
 */
export function projectInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean)
  const [first, second] = words
  if (!first) return ''
  if (!second) return Array.from(first).slice(0, 2).join('').toUpperCase()
  return (firstChar(first) + firstChar(second)).toUpperCase()
}

function firstChar(word: string): string {
  return Array.from(word)[0] ?? ''
}

export function badgeColor(index: number): BadgeColor {
  const size = BADGE_COLORS.length
  return BADGE_COLORS[((index % size) + size) % size] ?? 'red'
}
