import type { z } from 'zod'

/** The definition zod keeps of a schema: its `type` and what that type holds. */
export type SchemaDef = { type: string } & Record<string, unknown>

export function schemaDef(schema: z.ZodType): SchemaDef {
  return (schema as unknown as { _zod: { def: SchemaDef } })._zod.def
}

const WRAPPERS = new Set([
  'optional',
  'nullable',
  'default',
  'prefault',
  'catch',
  'readonly',
  'nonoptional',
])

/**
 * The schema that reads a value's shape, under wrappers: optional, nullable, default and the
 * like, lazy schemas, and pipes (their input, or their output when the input only
 * preprocesses, as `z.preprocess` does).
 */
export function unwrapSchema(schema: z.ZodType): z.ZodType {
  const def = schemaDef(schema)
  if (WRAPPERS.has(def.type)) return unwrapSchema(def.innerType as z.ZodType)
  if (def.type === 'lazy') return unwrapSchema((def.getter as () => z.ZodType)())
  if (def.type === 'pipe') {
    const input = def.in as z.ZodType
    const preprocesses = schemaDef(input).type === 'transform'
    return unwrapSchema(preprocesses ? (def.out as z.ZodType) : input)
  }
  return schema
}

/** The declared fields of an object schema under its wrappers; null for other schemas. */
export function objectShape(schema: z.ZodType): Record<string, z.ZodType> | null {
  const def = schemaDef(unwrapSchema(schema))
  return def.type === 'object' ? (def.shape as Record<string, z.ZodType>) : null
}

/** Whether an object schema keeps fields it does not declare (`catchall`, `looseObject`). */
export function keepsUndeclared(schema: z.ZodType): boolean {
  const catchall = schemaDef(unwrapSchema(schema)).catchall as z.ZodType | undefined
  return catchall !== undefined && schemaDef(catchall).type !== 'never'
}

/**
 * The branch of a union (`schema` unwrapped is one) that a value is meant for: the one its
 * discriminator selects, else the one declaring most of its keys.
 */
export function unionBranch(schema: z.ZodType, value: unknown): z.ZodType | undefined {
  const def = schemaDef(unwrapSchema(schema))
  const options = (def.options ?? []) as z.ZodType[]
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return options[0]
  const record = value as Record<string, unknown>
  const key = def.discriminator
  if (typeof key === 'string') {
    const chosen = options.find((option) => {
      const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })
        ._zod.propValues?.[key]
      return values?.has(record[key]) ?? false
    })
    if (chosen) return chosen
  }
  const declared = (option: z.ZodType) => {
    const shape = objectShape(option) ?? {}
    return Object.keys(record).filter((field) => field in shape).length
  }
  return [...options].sort((a, b) => declared(b) - declared(a))[0]
}
