import type { JobLine } from '@flagman/contract'
import { describe, expect, it } from 'vitest'
import { LineSink, LineSplitter } from '../src/output.js'

function split(chunks: Buffer[]): string[] {
  const lines: string[] = []
  const splitter = new LineSplitter((line) => lines.push(line))
  for (const chunk of chunks) splitter.write(chunk)
  splitter.end()
  return lines
}

describe('LineSplitter', () => {
  it('splits on \\n, drops a trailing \\r and keeps the last unterminated line', () => {
    expect(split([Buffer.from('a\r\nb\n\nc')])).toEqual(['a', 'b', '', 'c'])
  })

  it('joins lines and multi-byte characters split across chunks', () => {
    const bytes = Buffer.from('héllo wörld\nnext\n')
    const chunks = [...bytes].map((b) => Buffer.from([b]))
    expect(split(chunks)).toEqual(['héllo wörld', 'next'])
  })

  it('keeps very long lines whole', () => {
    const long = 'x'.repeat(5_000_000)
    expect(split([Buffer.from(long.slice(0, 1000)), Buffer.from(`${long.slice(1000)}\n`)])).toEqual(
      [long],
    )
  })
})

describe('LineSink', () => {
  it('masks the longest secret first and every line of a multi-line secret', () => {
    const batches: JobLine[][] = []
    const key = '-----BEGIN KEY-----\nAAAABBBBCCCCDDDD\n-----END KEY-----\n'
    const sink = new LineSink((lines) => batches.push(lines), ['abc', 'abcdef', '', key])
    sink.push('x abcdef y abc z')
    sink.push('AAAABBBBCCCCDDDD')
    sink.flush()
    expect(batches.flat().map((l) => l.output)).toEqual(['x **** y **** z', '****'])
  })

  it('delivers batches of at most 1000 lines', () => {
    const sizes: number[] = []
    const sink = new LineSink((lines) => sizes.push(lines.length), [])
    for (let i = 0; i < 2500; i += 1) sink.push(String(i))
    sink.flush()
    expect(sizes).toEqual([1000, 1000, 500])
  })
})
