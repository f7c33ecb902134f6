import { z } from 'zod'
import { typeError } from '../common/fields.js'

export const RefItem = z.object({ id: z.number(), name: z.string() })
export type RefItem = z.infer<typeof RefItem>

/** Who uses an object; an object with any reference can not be deleted. */
export const Refs = z.object({
  templates: z.array(RefItem),
  inventories: z.array(RefItem),
  repositories: z.array(RefItem),
  integrations: z.array(RefItem),
  schedules: z.array(RefItem),
})
export type Refs = z.infer<typeof Refs>

export const REF_SECTIONS = [
  'templates',
  'inventories',
  'repositories',
  'integrations',
  'schedules',
] as const

export function hasRefs(refs: Refs): boolean {
  return REF_SECTIONS.some((section) => refs[section].length > 0)
}

/** Common `?sort=&order=` of resource lists. */
export function listQuery<T extends readonly [string, ...string[]]>(columns: T) {
  return z.object({
    sort: z.enum(columns, { error: 'invalid sort column' }).optional(),
    order: z.string().max(8).optional(),
  })
}

/**
 * Most bytes (UTF-8) a long text field of a resource may hold (inventories, extra
 * variables, encrypted secrets), the same whatever database the server uses. Long text
 * columns are MEDIUMTEXT on MySQL and MariaDB, so this fits with room to spare.
 */
export const MAX_TEXT_BYTES = 1024 * 1024

export function utf8Length(text: string): number {
  return new TextEncoder().encode(text).length
}

/** A string whose UTF-8 form fits a TEXT column; `label is too long` otherwise. */
export function longText(label: string) {
  return z
    .string({ error: typeError(label, 'a string') })
    .refine((text) => utf8Length(text) <= MAX_TEXT_BYTES, {
      message: `${label} is too long (at most ${MAX_TEXT_BYTES} bytes)`,
      abort: true,
    })
}
