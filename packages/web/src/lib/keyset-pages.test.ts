import { describe, expect, it } from 'vitest'
import { allRows, keysetQuery, nextCursor } from './keyset-pages'

describe('keyset pages', () => {
  it('asks for the first page without a cursor and for the next ones before the last id', () => {
    expect(keysetQuery(50, undefined)).toEqual({ limit: '50' })
    expect(keysetQuery(50, 812)).toEqual({ limit: '50', before_id: '812' })
  })

  it('goes on after a full page only', () => {
    const page = [{ id: 9 }, { id: 7 }, { id: 4 }]
    expect(nextCursor(page, 3)).toBe(4)
    expect(nextCursor(page, 4)).toBeUndefined()
    expect(nextCursor([], 3)).toBeUndefined()
  })

  it('joins the pages in order', () => {
    expect(allRows({ pages: [[{ id: 3 }, { id: 2 }], [{ id: 1 }]] })).toEqual([
      { id: 3 },
      { id: 2 },
      { id: 1 },
    ])
    expect(allRows(undefined)).toEqual([])
  })
})
