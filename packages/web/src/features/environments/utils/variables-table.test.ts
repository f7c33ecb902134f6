import { describe, expect, it } from 'vitest'
import { jsonToRows, rowsToJson } from './variables-table'

describe('jsonToRows', () => {
  it('turns a flat object into rows', () => {
    const result = jsonToRows('{"region": "eu", "replicas": 3, "debug": false}')
    expect(result.ok && result.rows.map(({ name, value }) => [name, value])).toEqual([
      ['region', 'eu'],
      ['replicas', '3'],
      ['debug', 'false'],
    ])
  })

  it('refuses invalid JSON with the parse error', () => {
    const result = jsonToRows('{"a": ')
    expect(result).toMatchObject({ ok: false, reason: 'invalid' })
    expect(!result.ok && result.reason === 'invalid' && result.message).toBeTruthy()
  })

  it('refuses nested values', () => {
    expect(jsonToRows('{"a": {"b": 1}}')).toEqual({ ok: false, reason: 'nested' })
    expect(jsonToRows('{"a": [1, 2]}')).toEqual({ ok: false, reason: 'nested' })
  })

  it('refuses JSON that is not an object', () => {
    expect(jsonToRows('[1]')).toMatchObject({ ok: false, reason: 'invalid' })
  })
})

describe('rowsToJson', () => {
  it('keeps the type of values that were not changed, and leaves out unnamed rows', () => {
    const converted = jsonToRows('{"replicas": 3, "debug": false}')
    if (!converted.ok) throw new Error('not converted')
    const [replicas, debug] = converted.rows
    const rows = [
      replicas!,
      { ...debug!, value: 'yes' },
      { key: 99, name: '  ', value: 'orphan' },
      { key: 100, name: 'region', value: 'eu' },
    ]
    expect(JSON.parse(rowsToJson(rows))).toEqual({ replicas: 3, debug: 'yes', region: 'eu' })
  })
})
