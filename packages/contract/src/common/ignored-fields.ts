import type { z } from 'zod'
import { keepsUndeclared, schemaDef, unionBranch, unwrapSchema } from './schema-shape.js'

/**
 * The fields of `value` that `schema` does not declare, as dotted paths (`vaults.0.colour`):
 * what the tolerant reading of a request body (see RouteDef.body) drops. Used to report what
 * a restore could not map and to name, in tests, what compatible clients send that Flagman
 * does not use. A union is read by the branch the value is meant for.
 */
export function ignoredFields(schema: z.ZodType, value: unknown, path = ''): string[] {
  const inner = unwrapSchema(schema)
  const def = schemaDef(inner)
  switch (def.type) {
    case 'array':
      if (!Array.isArray(value)) return []
      return value.flatMap((item, index) =>
        ignoredFields(def.element as z.ZodType, item, join(path, String(index))),
      )
    case 'object': {
      if (!isRecord(value)) return []
      const shape = def.shape as Record<string, z.ZodType>
      const keeps = keepsUndeclared(inner)
      return Object.entries(value).flatMap(([key, item]) => {
        const field = shape[key]
        if (field) return ignoredFields(field, item, join(path, key))
        return keeps ? [] : [join(path, key)]
      })
    }
    case 'union': {
      const branch = unionBranch(inner, value)
      return branch ? ignoredFields(branch, value, path) : []
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
