import { describe, expect, it } from 'vitest'
import { lastPageRows, OUTPUT_PAGE_LINES, pagesFor } from './output-pages'

describe('pagesFor', () => {
  it('covers the rows with whole pages, the last one as long as the log', () => {
    expect(pagesFor(0, 10, 2500)).toEqual([{ index: 0, offset: 1, limit: OUTPUT_PAGE_LINES }])
    expect(pagesFor(990, 1010, 2500)).toEqual([
      { index: 0, offset: 1, limit: 1000 },
      { index: 1, offset: 1001, limit: 1000 },
    ])
    expect(pagesFor(2400, 2499, 2500)).toEqual([{ index: 2, offset: 2001, limit: 500 }])
  })

  it('clamps rows outside the log and answers nothing for an empty one', () => {
    expect(pagesFor(5000, 9000, 2500)).toEqual([{ index: 2, offset: 2001, limit: 500 }])
    expect(pagesFor(-5, 3, 10)).toEqual([{ index: 0, offset: 1, limit: 10 }])
    expect(pagesFor(0, 10, 0)).toEqual([])
  })

  it('asks for the end of a million-line log, not its start', () => {
    const end = lastPageRows(1_000_000)
    expect(pagesFor(end.first, end.last, 1_000_000)).toEqual([
      { index: 999, offset: 999_001, limit: 1000 },
    ])
  })
})
