import { describe, expect, it } from 'vitest'
import { formatTaskParams, parseTaskParams } from './task-params'

describe('parseTaskParams', () => {
  it('reads empty text as no parameters', () => {
    expect(parseTaskParams('  \n')).toEqual({ ok: true, value: null })
  })

  it('reads a JSON object', () => {
    expect(parseTaskParams('{"debug": true}')).toEqual({ ok: true, value: { debug: true } })
  })

  it('refuses text that is not JSON', () => {
    expect(parseTaskParams('{debug}')).toEqual({ ok: false, problem: 'json' })
  })

  it('refuses JSON that is not an object', () => {
    expect(parseTaskParams('[1]')).toEqual({ ok: false, problem: 'object' })
    expect(parseTaskParams('null')).toEqual({ ok: false, problem: 'object' })
    expect(parseTaskParams('"x"')).toEqual({ ok: false, problem: 'object' })
  })
})

describe('formatTaskParams', () => {
  it('shows nothing for no parameters', () => {
    expect(formatTaskParams(null)).toBe('')
    expect(formatTaskParams({})).toBe('')
  })

  it('indents an object', () => {
    expect(formatTaskParams({ debug: true })).toBe('{\n  "debug": true\n}')
  })
})
