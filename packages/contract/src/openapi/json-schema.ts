import { z } from 'zod'
import { ErrorBody } from '../common/errors.js'
import type { JsonObject } from './types.js'

/** Where every error answer's schema lives in the document. */
export const ERROR_BODY_REF: JsonObject = { $ref: '#/components/schemas/ErrorBody' }

/**
 * Requests are described as the server reads them (`input`: before transforms and defaults),
 * answers as it writes them (`output`).
 */
export type Direction = 'input' | 'output'

function convert(schema: z.ZodType, io: Direction): JsonObject {
  try {
    const { $schema: _dialect, ...json } = z.toJSONSchema(schema, {
      target: 'draft-2020-12',
      io,
      unrepresentable: 'any',
    }) as JsonObject
    return json
  } catch {
    // Refinements and custom types that JSON Schema can not express: described as "any value"
    // rather than failing the whole document.
    return {}
  }
}

/** Rewrites every `$ref` of `value` with `rename`, in place. */
function rewriteRefs(value: unknown, rename: (ref: string) => string): void {
  if (Array.isArray(value)) {
    for (const item of value) rewriteRefs(item, rename)
    return
  }
  if (typeof value !== 'object' || value === null) return
  const record = value as JsonObject
  if (typeof record.$ref === 'string') record.$ref = rename(record.$ref)
  for (const item of Object.values(record)) rewriteRefs(item, rename)
}

/**
 * Converts contract schemas to JSON Schema for the document. A converted schema may define
 * parts of itself in `$defs` (recursive schemas do); those refer to the schema's own root,
 * which inside the document is the document, so they are moved to `components.schemas` and
 * their references rewritten.
 */
export class SchemaConverter {
  readonly components: Record<string, JsonObject> = {
    ErrorBody: convert(ErrorBody, 'output'),
  }

  toJson(schema: z.ZodType, io: Direction): JsonObject {
    if (schema === ErrorBody) return { ...ERROR_BODY_REF }
    const { $defs, ...json } = convert(schema, io)
    const defs = ($defs ?? {}) as Record<string, JsonObject>
    const names = new Map<string, string>()
    for (const name of Object.keys(defs)) names.set(name, this.freeName(name))
    const selfRecursive = JSON.stringify(json).includes('"$ref":"#"')
    const rootName = selfRecursive ? this.freeName('Recursive') : null
    const rename = (ref: string): string => {
      if (ref === '#' && rootName) return `#/components/schemas/${rootName}`
      const def = /^#\/\$defs\/(.+)$/.exec(ref)?.[1]
      const renamed = def === undefined ? undefined : names.get(def)
      return renamed ? `#/components/schemas/${renamed}` : ref
    }
    for (const [name, def] of Object.entries(defs)) {
      rewriteRefs(def, rename)
      this.components[names.get(name) as string] = def
    }
    rewriteRefs(json, rename)
    if (rootName) {
      this.components[rootName] = json
      return { $ref: `#/components/schemas/${rootName}` }
    }
    return json
  }

  private freeName(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^_+/, '') || 'Schema'
    let name = base
    for (let n = 2; name in this.components; n++) name = `${base}_${n}`
    // Reserved at once, so that two definitions of one schema never get the same name.
    this.components[name] = {}
    return name
  }
}
