import type { z } from 'zod'

/**
 * The fields of `value` that `schema` does not declare, as dotted paths (`vaults.0.colour`):
 * what the tolerant reading of a request body (see RouteDef.body) drops. Used to report what
 * a restore could not map and to name, in tests, what compatible clients send that Flagman
 * does not use. Unions are read leniently: a key counts as declared when any branch does.
 */
export function ignoredFields(schema: z.ZodType, value: unknown, path = ''): string[] {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return ignoredFields(def.innerType as z.ZodType, value, path)
    case 'pipe': {
      // A preprocessed schema is a pipe from a transform: the fields are the target's.
      const input = def.in as z.ZodType
      const declares = (input as unknown as { _zod: { def: Def } })._zod.def.type !== 'transform'
      return ignoredFields(declares ? input : (def.out as z.ZodType), value, path)
    }
    case 'lazy':
      return ignoredFields((def.getter as () => z.ZodType)(), value, path)
    case 'array':
      if (!Array.isArray(value)) return []
      return value.flatMap((item, index) =>
        ignoredFields(def.element as z.ZodType, item, join(path, String(index))),
      )
    case 'object': {
      if (!isRecord(value)) return []
      const shape = def.shape as Record<string, z.ZodType>
      const keepsUnknown = def.catchall !== undefined && def.catchall._zod?.def.type !== 'never'
      return Object.entries(value).flatMap(([key, item]) => {
        const field = shape[key]
        if (field) return ignoredFields(field, item, join(path, key))
        return keepsUnknown ? [] : [join(path, key)]
      })
    }
    case 'union': {
      const options = def.options as z.ZodType[]
      const chosen = discriminatedOption(def, options, value)
      if (chosen) return ignoredFields(chosen, value, path)
      const each = options.map((option) => ignoredFields(option, value, path))
      // The branch that declares the most of the value is the one it was meant for.
      return each.reduce((best, next) => (next.length < best.length ? next : best), each[0] ?? [])
    }
    case 'intersection':
      return intersect(
        ignoredFields(def.left as z.ZodType, value, path),
        ignoredFields(def.right as z.ZodType, value, path),
      )
    default:
      return []
  }
}

/** The branch of a discriminated union that the value's discriminator selects, if any. */
function discriminatedOption(def: Def, options: z.ZodType[], value: unknown): z.ZodType | null {
  const key = def.discriminator
  if (typeof key !== 'string' || !isRecord(value)) return null
  const selected = value[key]
  return (
    options.find((option) => {
      const values = (option as unknown as { _zod: { propValues?: Record<string, Set<unknown>> } })
        ._zod.propValues?.[key]
      return values?.has(selected) ?? false
    }) ?? null
  )
}

interface Def {
  type: string
  [key: string]: unknown
  catchall?: { _zod?: { def: { type: string } } }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key
}

function intersect(a: string[], b: string[]): string[] {
  const other = new Set(b)
  return a.filter((field) => other.has(field))
}
