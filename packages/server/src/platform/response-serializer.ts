import type { z } from 'zod'

/**
 * Turns a handler's result into the JSON text of the answer, the way
 * `JSON.stringify(schema.parse(result))` would, without paying for a full zod parse on every
 * answer: the schema is walked once, when the route is mounted, into a tree of small writers.
 *
 * The writers keep the guarantee that matters: only fields the schema declares are written,
 * at every level (objects, arrays, records, nullable and optional values). They check the
 * type of every value and hand anything unexpected to zod, so a wrong type still fails as it
 * would under parse. Refinements (`.int()`, `.min()`, …) are not re-checked; strict mode
 * (`strictResponses`) runs the full parse for that.
 *
 * Shapes whose output is not the input (transforms, pipes, unions, catch-all objects, …) are
 * written by zod itself: that part of the value is parsed and then stringified, which is by
 * construction what parse + stringify gives.
 */
export type ResponseSerializer = (value: unknown) => string | undefined

type Writer = (value: unknown) => string | undefined

type AnySchema = z.core.$ZodType

interface Def {
  type: string
  [key: string]: unknown
}

function defOf(schema: AnySchema): Def {
  return schema._zod.def as unknown as Def
}

/** What zod itself writes for this schema: parse, then stringify. */
function viaZod(schema: AnySchema): Writer {
  const parse = (schema as z.ZodType).parse.bind(schema)
  return (value) => JSON.stringify(parse(value))
}

/** Writes a primitive as JSON when `accepts` it; anything else goes to zod (which refuses it). */
function primitive(schema: AnySchema, accepts: (value: unknown) => boolean): Writer {
  const fallback = viaZod(schema)
  return (value) => (accepts(value) ? JSON.stringify(value) : fallback(value))
}

/** What zod takes for an object: anything but null and arrays. */
function isObjectLike(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** What zod takes for a record: a plain object; class instances are left to zod to judge. */
function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObjectLike(value)) return false
  const prototype = Object.getPrototypeOf(value) as unknown
  return prototype === Object.prototype || prototype === null
}

class Compiler {
  /** One writer per schema object, so shared and recursive (lazy) schemas compile once. */
  private readonly writers = new Map<AnySchema, Writer>()

  writer(schema: AnySchema): Writer {
    const known = this.writers.get(schema)
    if (known) return known
    // Recursive schemas reach themselves again while compiling; they get this indirection.
    const slot: { writer?: Writer } = {}
    this.writers.set(schema, (value) => (slot.writer as Writer)(value))
    slot.writer = this.compile(schema)
    this.writers.set(schema, slot.writer)
    return slot.writer
  }

  private compile(schema: AnySchema): Writer {
    const def = defOf(schema)
    switch (def.type) {
      case 'string':
        return primitive(schema, (v) => typeof v === 'string')
      case 'number':
        return primitive(schema, (v) => typeof v === 'number' && Number.isFinite(v))
      case 'boolean':
        return primitive(schema, (v) => typeof v === 'boolean')
      case 'null':
        return primitive(schema, (v) => v === null)
      case 'date':
        return primitive(schema, (v) => v instanceof Date && !Number.isNaN(v.getTime()))
      case 'any':
      case 'unknown':
        // zod passes these through untouched.
        return (value) => JSON.stringify(value)
      case 'enum': {
        const values = new Set(Object.values(def.entries as Record<string, unknown>))
        return primitive(schema, (v) => values.has(v))
      }
      case 'literal': {
        const values = new Set(def.values as unknown[])
        return primitive(schema, (v) => values.has(v))
      }
      case 'nullable': {
        const inner = this.writer(def.innerType as AnySchema)
        return (value) => (value === null ? 'null' : inner(value))
      }
      case 'optional': {
        const inner = this.writer(def.innerType as AnySchema)
        return (value) => (value === undefined ? undefined : inner(value))
      }
      case 'readonly':
        return this.writer(def.innerType as AnySchema)
      case 'default': {
        // zod gives the default value itself, unparsed, for a missing value.
        const inner = this.writer(def.innerType as AnySchema)
        return (value) => (value === undefined ? JSON.stringify(def.defaultValue) : inner(value))
      }
      case 'lazy':
        return this.writer((def.getter as () => AnySchema)())
      case 'array':
        return this.array(schema, def)
      case 'object':
        return def.catchall === undefined ? this.object(schema, def) : viaZod(schema)
      case 'record':
        return defOf(def.keyType as AnySchema).type === 'string' &&
          !(def.keyType as AnySchema)._zod.def.checks?.length
          ? this.record(schema, def)
          : viaZod(schema)
      default:
        return viaZod(schema)
    }
  }

  private array(schema: AnySchema, def: Def): Writer {
    const element = this.writer(def.element as AnySchema)
    const fallback = viaZod(schema)
    return (value) => {
      if (!Array.isArray(value)) return fallback(value)
      let out = '['
      for (let i = 0; i < value.length; i += 1) {
        if (i > 0) out += ','
        // As JSON.stringify writes a missing array item.
        out += element(value[i]) ?? 'null'
      }
      return out + ']'
    }
  }

  private object(schema: AnySchema, def: Def): Writer {
    const shape = def.shape as Record<string, AnySchema>
    const fields = Object.keys(shape).map((key) => ({
      key,
      label: `${JSON.stringify(key)}:`,
      write: this.writer(shape[key] as AnySchema),
    }))
    const fallback = viaZod(schema)
    return (value) => {
      if (!isObjectLike(value)) return fallback(value)
      let out = '{'
      for (const field of fields) {
        const text = field.write(value[field.key])
        if (text === undefined) continue
        if (out.length > 1) out += ','
        out += field.label + text
      }
      return out + '}'
    }
  }

  /** Records keyed by any text: every own key, with its value written by the value schema. */
  private record(schema: AnySchema, def: Def): Writer {
    const item = this.writer(def.valueType as AnySchema)
    const fallback = viaZod(schema)
    return (value) => {
      if (!isPlainObject(value)) return fallback(value)
      let out = '{'
      for (const key of Object.keys(value)) {
        if (key === '__proto__') continue
        const text = item(value[key])
        if (text === undefined) continue
        if (out.length > 1) out += ','
        out += `${JSON.stringify(key)}:${text}`
      }
      return out + '}'
    }
  }
}

/** Compiles the writer of a response schema; done once per route, when it is mounted. */
export function compileResponseSerializer(schema: z.ZodType): ResponseSerializer {
  return new Compiler().writer(schema)
}
