import { describe, expect, it } from 'vitest'
import {
  diffStateTexts,
  instanceAddress,
  parseState,
  sameValue,
} from '../../src/modules/terraform/state-diff.js'

interface Resource {
  mode?: string
  type: string
  name: string
  module?: string
  instances: Array<Record<string, unknown>>
}

/** A state text of format version 4. */
function state(resources: Resource[], outputs: Record<string, unknown> = {}): string {
  return JSON.stringify({
    version: 4,
    terraform_version: '1.9.0',
    serial: 1,
    lineage: 'b0a7c2f4-0000-4000-8000-000000000000',
    outputs: Object.fromEntries(
      Object.entries(outputs).map(([name, value]) => [name, { value, type: 'string' }]),
    ),
    resources: resources.map((r) => ({ mode: 'managed', provider: 'provider["x"]', ...r })),
  })
}

const one = (attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  schema_version: 0,
  attributes,
  ...extra,
})

describe('Terraform resource addresses', () => {
  it('names managed resources, data sources, modules, count and for_each instances', () => {
    const web = { mode: 'managed', type: 'aws_instance', name: 'web' }
    expect(instanceAddress(web, undefined)).toBe('aws_instance.web')
    expect(instanceAddress(web, 0)).toBe('aws_instance.web[0]')
    expect(instanceAddress(web, 12)).toBe('aws_instance.web[12]')
    expect(instanceAddress(web, 'blue')).toBe('aws_instance.web["blue"]')
    expect(instanceAddress({ ...web, mode: 'data', type: 'aws_ami' }, undefined)).toBe(
      'data.aws_ami.web',
    )
    expect(instanceAddress({ ...web, module: 'module.net' }, 1)).toBe(
      'module.net.aws_instance.web[1]',
    )
    expect(instanceAddress({ ...web, mode: 'data', module: 'module.a["x"].module.b' }, 'k')).toBe(
      'module.a["x"].module.b.data.aws_instance.web["k"]',
    )
  })

  it('escapes quotes in for_each keys as Terraform does', () => {
    expect(instanceAddress({ type: 't', name: 'n' }, 'a"b')).toBe('t.n["a\\"b"]')
  })
})

describe('reading a state', () => {
  it('finds every instance and root output', () => {
    const parsed = parseState(
      state(
        [
          { type: 'null_resource', name: 'a', instances: [one({ id: '1' }), one({ id: '2' })] },
          {
            type: 'null_resource',
            name: 'b',
            instances: [one({ id: '3' }, { index_key: 0 }), one({ id: '4' }, { index_key: 1 })],
          },
        ],
        { ip: '10.0.0.1' },
      ),
    )
    // Two instances without a key at one address: the last one is kept.
    expect([...parsed.instances.keys()]).toEqual([
      'null_resource.a',
      'null_resource.b[0]',
      'null_resource.b[1]',
    ])
    expect(parsed.outputs.get('ip')).toBe('10.0.0.1')
  })

  it('leaves out deposed objects, which share the address of the current one', () => {
    const parsed = parseState(
      state([
        {
          type: 'aws_instance',
          name: 'web',
          instances: [one({ id: 'new' }), one({ id: 'old' }, { deposed: '00000001' })],
        },
      ]),
    )
    expect(parsed.instances.get('aws_instance.web')?.attributes).toEqual({ id: 'new' })
  })

  it('reads the flat attributes of older states', () => {
    const parsed = parseState(
      JSON.stringify({
        version: 4,
        resources: [
          { mode: 'managed', type: 't', name: 'n', instances: [{ attributes_flat: { id: 'x' } }] },
        ],
      }),
    )
    expect(parsed.instances.get('t.n')?.attributes).toEqual({ id: 'x' })
  })

  it('reads nothing from texts that are not a state, without failing', () => {
    for (const text of [
      '',
      'not json',
      'null',
      '[]',
      '"text"',
      '{}',
      '{"resources": "none", "outputs": []}',
      '{"resources": [null, 1, {"type": 1, "name": "x"}, {"type": "t", "name": "n"}]}',
      '{"resources": [{"type": "t", "name": "n", "instances": [null, "x"]}]}',
    ]) {
      const parsed = parseState(text)
      expect(parsed.instances.size, text).toBe(0)
      expect(parsed.outputs.size, text).toBe(0)
    }
  })
})

describe('comparing values', () => {
  it('compares JSON values deeply, whatever the order of keys', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true)
    expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(sameValue([1, 2], [2, 1])).toBe(false)
    expect(sameValue([], {})).toBe(false)
    expect(sameValue(null, {})).toBe(false)
    expect(sameValue('1', 1)).toBe(false)
    expect(sameValue(null, null)).toBe(true)
  })
})

describe('the differences between two states', () => {
  const base = state(
    [
      { type: 'aws_instance', name: 'web', instances: [one({ id: 'i-1', ami: 'a', tags: {} })] },
      { mode: 'data', type: 'aws_ami', name: 'ubuntu', instances: [one({ id: 'ami-1' })] },
      {
        module: 'module.net',
        type: 'aws_subnet',
        name: 'private',
        instances: [
          one({ id: 's-a', cidr: '10.0.1.0/24' }, { index_key: 'a' }),
          one({ id: 's-b', cidr: '10.0.2.0/24' }, { index_key: 'b' }),
        ],
      },
      {
        type: 'null_resource',
        name: 'count',
        instances: [one({ id: '0' }, { index_key: 0 }), one({ id: '1' }, { index_key: 1 })],
      },
    ],
    { ip: '10.0.0.1', kept: 'same', gone: 'x' },
  )

  it('finds nothing between a state and itself, or an equal one with keys reordered', () => {
    expect(diffStateTexts(base, base)).toEqual({ added: [], changed: [], removed: [], outputs: [] })
    const reordered = JSON.stringify(JSON.parse(base), (_key, value: unknown) =>
      value && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).reverse())
        : value,
    )
    expect(diffStateTexts(base, reordered).changed).toEqual([])
  })

  it('lists added, changed and removed instances by address, and changed outputs', () => {
    const next = state(
      [
        {
          type: 'aws_instance',
          name: 'web',
          // ami changed, tags changed deeply, user_data appeared, nothing else.
          instances: [one({ id: 'i-1', ami: 'b', tags: { env: 'prod' }, user_data: 'x' })],
        },
        { mode: 'data', type: 'aws_ami', name: 'ubuntu', instances: [one({ id: 'ami-2' })] },
        {
          module: 'module.net',
          type: 'aws_subnet',
          name: 'private',
          instances: [
            one({ id: 's-a', cidr: '10.0.1.0/24' }, { index_key: 'a' }),
            one({ id: 's-c', cidr: '10.0.3.0/24' }, { index_key: 'c' }),
          ],
        },
        {
          type: 'null_resource',
          name: 'count',
          instances: [
            one({ id: '0' }, { index_key: 0 }),
            one({ id: '1' }, { index_key: 1 }),
            one({ id: '2' }, { index_key: 2 }),
          ],
        },
        { type: 'random_id', name: 'suffix', instances: [one({ id: 'r' })] },
      ],
      { ip: '10.0.0.2', kept: 'same', fresh: 'y' },
    )
    expect(diffStateTexts(base, next)).toEqual({
      added: [
        { address: 'module.net.aws_subnet.private["c"]', type: 'aws_subnet', attributes: [] },
        { address: 'null_resource.count[2]', type: 'null_resource', attributes: [] },
        { address: 'random_id.suffix', type: 'random_id', attributes: [] },
      ],
      changed: [
        {
          address: 'aws_instance.web',
          type: 'aws_instance',
          attributes: ['ami', 'tags', 'user_data'],
        },
        { address: 'data.aws_ami.ubuntu', type: 'aws_ami', attributes: ['id'] },
      ],
      removed: [
        { address: 'module.net.aws_subnet.private["b"]', type: 'aws_subnet', attributes: [] },
      ],
      outputs: ['fresh', 'gone', 'ip'],
    })
  })

  it('lists the names of changed sensitive attributes, never their values', () => {
    const from = state([
      {
        type: 'aws_db_instance',
        name: 'db',
        instances: [
          one(
            { id: 'db', password: 'old-secret' },
            { sensitive_attributes: [[{ type: 'get_attr', value: 'password' }]] },
          ),
        ],
      },
    ])
    const to = from.replace('old-secret', 'new-secret')
    const diff = diffStateTexts(from, to)
    expect(diff.changed).toEqual([
      { address: 'aws_db_instance.db', type: 'aws_db_instance', attributes: ['password'] },
    ])
    expect(JSON.stringify(diff)).not.toContain('secret')
  })

  it('treats an attribute that disappears as changed', () => {
    const from = state([{ type: 't', name: 'n', instances: [one({ id: '1', note: 'x' })] }])
    const to = state([{ type: 't', name: 'n', instances: [one({ id: '1' })] }])
    expect(diffStateTexts(from, to).changed).toEqual([
      { address: 't.n', type: 't', attributes: ['note'] },
    ])
  })

  it('tells a for_each key from a count index of the same text', () => {
    const from = state([{ type: 't', name: 'n', instances: [one({ id: 'a' }, { index_key: 0 })] }])
    const to = state([{ type: 't', name: 'n', instances: [one({ id: 'a' }, { index_key: '0' })] }])
    const diff = diffStateTexts(from, to)
    expect(diff.added.map((r) => r.address)).toEqual(['t.n["0"]'])
    expect(diff.removed.map((r) => r.address)).toEqual(['t.n[0]'])
  })

  it('compares with a state without resources, or an empty text, as with nothing', () => {
    const empty = state([])
    const diff = diffStateTexts(empty, base)
    expect(diff.added.map((r) => r.address)).toEqual([
      'aws_instance.web',
      'data.aws_ami.ubuntu',
      'module.net.aws_subnet.private["a"]',
      'module.net.aws_subnet.private["b"]',
      'null_resource.count[0]',
      'null_resource.count[1]',
    ])
    expect(diff.removed).toEqual([])
    expect(diff.outputs).toEqual(['gone', 'ip', 'kept'])
    expect(diffStateTexts(base, '').removed).toHaveLength(6)
    expect(diffStateTexts('', '')).toEqual({ added: [], changed: [], removed: [], outputs: [] })
  })

  it('sees an output whose value turns null, and one with no value at all', () => {
    const from = JSON.stringify({ version: 4, outputs: { a: { value: 1 }, b: { value: null } } })
    const to = JSON.stringify({ version: 4, outputs: { a: { value: null }, b: {} } })
    // `b` held null and now holds no value at all: a changed output all the same.
    expect(diffStateTexts(from, to).outputs).toEqual(['a', 'b'])
  })
})
