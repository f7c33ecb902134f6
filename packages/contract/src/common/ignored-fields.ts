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
    case 'pipe':
      return ignoredFields(def.in as z.ZodType, value, path)
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
