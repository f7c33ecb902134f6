import { ROUTES } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { compileResponseSerializer } from '../../src/platform/response-serializer.js'

const SECRET = 'secret-marker-7f3a'

/** What the answer was before serialisers were compiled: parse, then stringify. */
function reference(schema: z.ZodType, value: unknown): string | undefined {
  return JSON.stringify(schema.parse(value))
}

function expectSameAsParse(schema: z.ZodType, value: unknown): string | undefined {
  const text = compileResponseSerializer(schema)(value)
  expect(text).toBe(reference(schema, value))
  return text
}

describe('compiled response serialiser', () => {
  it('writes only declared fields, at every nesting level', () => {
    const schema = z.object({
      id: z.number(),
      name: z.string(),
      owner: z.object({ login: z.string() }),
      keys: z.array(z.object({ id: z.number(), label: z.string().nullable() })),
    })
    const text = expectSameAsParse(schema, {
      password: SECRET,
      id: 1,
      name: 'a "quoted" name\n\u2028',
      owner: { login: 'x', token: SECRET },
      keys: [
        { id: 2, label: null, secret: SECRET },
        { id: 3, label: 'l', private_key: SECRET },
      ],
    })
    expect(text).not.toContain(SECRET)
  })

  it('keeps the order of the schema, not of the value', () => {
    const schema = z.object({ b: z.number(), a: z.number() })
    expect(expectSameAsParse(schema, { a: 1, b: 2 })).toBe('{"b":2,"a":1}')
  })

  it('leaves out optional fields that are missing or undefined', () => {
    const schema = z.object({ a: z.string().optional(), b: z.number().nullable().optional() })
    expectSameAsParse(schema, {})
    expectSameAsParse(schema, { a: undefined, b: null })
    expectSameAsParse(schema, { a: 'x', b: 3 })
  })

  it('writes nullable values and nested arrays', () => {
    const schema = z.array(z.array(z.number().nullable()).nullable())
    expectSameAsParse(schema, [[1, null, 2.5, -0], null, []])
  })

  it('fills defaults for missing values, unparsed, as zod does', () => {
    const schema = z.object({
      a: z.string().default('x'),
      b: z.array(z.string()).default([]),
      c: z.number().default(3),
    })
    expectSameAsParse(schema, {})
    expectSameAsParse(schema, { a: 'y', b: ['z'], c: 4 })
  })

  it('writes records with their own keys and filtered values', () => {
    const schema = z.object({
      params: z.record(z.string(), z.unknown()),
      counts: z.record(z.string(), z.object({ n: z.number() })),
    })
    const text = expectSameAsParse(schema, {
      params: { b: 1, a: { deep: true }, 10: 'ten', 2: null },
      counts: { ok: { n: 1, hidden: SECRET } },
    })
    expect(text).not.toContain(SECRET)
  })

  it('passes unknown values through as zod does', () => {
    const schema = z.object({ data: z.unknown(), any: z.any() })
    expectSameAsParse(schema, { data: { x: [1, 'a', null] }, any: 'y' })
  })

  it('writes enums, literals, booleans and dates', () => {
    const schema = z.object({
      status: z.enum(['waiting', 'success']),
      kind: z.literal('task'),
      ok: z.boolean(),
      at: z.date(),
    })
    expectSameAsParse(schema, {
      status: 'success',
      kind: 'task',
      ok: false,
      at: new Date(0),
    })
  })

  it('leaves transforms, pipes and unions to zod, declared fields only', () => {
    const schema = z.object({
      name: z
        .string()
        .nullish()
        .transform((v) => v ?? ''),
      role: z.union([z.object({ slug: z.string() }), z.literal('none')]),
      who: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('user'), id: z.number() }),
        z.object({ kind: z.literal('team'), name: z.string() }),
      ]),
      loose: z.looseObject({ a: z.number() }),
    })
    const text = expectSameAsParse(schema, {
      name: null,
      role: { slug: 'owner', secret: SECRET },
      who: { kind: 'team', name: 't', token: SECRET },
      loose: { a: 1, extra: 'kept, as zod keeps it' },
    })
    expect(text).not.toContain(SECRET)
  })

  it('follows recursive (lazy) schemas', () => {
    interface Node {
      name: string
      children: Node[]
    }
    const node: z.ZodType<Node> = z.lazy(() =>
      z.object({ name: z.string(), children: z.array(node) }),
    )
    const text = expectSameAsParse(node, {
      name: 'root',
      secret: SECRET,
      children: [{ name: 'leaf', children: [], secret: SECRET }],
    })
    expect(text).not.toContain(SECRET)
  })

  it('fails on a wrong type exactly as parse does', () => {
    const schema = z.object({ id: z.number(), tags: z.array(z.string()) })
    const write = compileResponseSerializer(schema)
    for (const bad of [
      { id: '1', tags: [] },
      { id: 1, tags: [2] },
      { id: 1, tags: 'a' },
      { id: Number.NaN, tags: [] },
      { tags: [] },
      null,
      [],
    ]) {
      expect(() => write(bad)).toThrow(z.ZodError)
      expect(() => schema.parse(bad)).toThrow(z.ZodError)
    }
  })
})

/**
 * A valid value for `schema`, with an undeclared secret field added to every object, so that
 * each route's serialiser is compared with parse on its real response schema.
 */
function sample(schema: z.core.$ZodType, depth = 0): unknown {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string }
  const inner = (key: string) => sample(def[key] as z.core.$ZodType, depth + 1)
  switch (def.type) {
    case 'string':
      return 'text'
    case 'number':
      return 7
    case 'boolean':
      return true
    case 'null':
      return null
    case 'date':
      return new Date(0)
    case 'unknown':
    case 'any':
      return { free: ['form', 1] }
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0]
    case 'literal':
      return (def.values as unknown[])[0]
    case 'nullable':
      return depth % 2 ? null : inner('innerType')
    case 'optional':
    case 'default':
      return depth % 3 === 2 ? undefined : inner('innerType')
    case 'readonly':
    case 'catch':
      return inner('innerType')
    case 'pipe':
      return inner('in')
    case 'transform':
      return undefined
    case 'lazy':
      return depth > 6 ? undefined : sample((def.getter as () => z.core.$ZodType)(), depth + 1)
    case 'array':
      return [inner('element'), inner('element')]
    case 'union':
      return sample((def.options as z.core.$ZodType[])[0] as z.core.$ZodType, depth + 1)
    case 'record':
      return { first: inner('valueType'), second: inner('valueType') }
    case 'object': {
      const shape = def.shape as Record<string, z.core.$ZodType>
      const value: Record<string, unknown> = { undeclared_secret: SECRET }
      for (const [key, field] of Object.entries(shape)) value[key] = sample(field, depth + 1)
      return value
    }
    default:
      return undefined
  }
}

describe('compiled response serialisers of the contract', () => {
  const routes = ROUTES.filter((route) => route.response)

  it('match parse + stringify on every response schema, and write no undeclared field', () => {
    let compared = 0
    for (const route of routes) {
      const schema = route.response as z.ZodType
      const value = sample(schema)
      const parsed = schema.safeParse(value)
      // A sample that breaks a refinement (formats, lengths) says nothing about the serialiser.
      if (!parsed.success) continue
      const text = compileResponseSerializer(schema)(value)
      expect(text, `${route.method} ${route.path}`).toBe(JSON.stringify(parsed.data))
      expect(text, `${route.method} ${route.path}`).not.toContain(SECRET)
      compared += 1
    }
    // Nearly every route's sample is valid; a drop here means the sampler lost track.
    expect(compared).toBeGreaterThan(routes.length * 0.8)
  })
})
