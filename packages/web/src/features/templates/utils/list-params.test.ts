import { describe, expect, it } from 'vitest'
import {
  DEFAULT_TEMPLATE_PAGE_SIZE,
  readTemplateListParams,
  writeTemplateListParams,
} from './list-params'

describe('template list parameters in the address', () => {
  it('reads the defaults from an address without them', () => {
    expect(readTemplateListParams(new URLSearchParams())).toEqual({
      search: '',
      page: 0,
      size: DEFAULT_TEMPLATE_PAGE_SIZE,
    })
  })

  it('reads search, 1-based page and an offered size; ignores the rest', () => {
    expect(readTemplateListParams(new URLSearchParams('search=web&page=3&size=100'))).toEqual({
      search: 'web',
      page: 2,
      size: 100,
    })
    expect(readTemplateListParams(new URLSearchParams('page=-1&size=7'))).toEqual({
      search: '',
      page: 0,
      size: DEFAULT_TEMPLATE_PAGE_SIZE,
    })
  })

  it('writes only what differs from the defaults and keeps other parameters', () => {
    const written = writeTemplateListParams(new URLSearchParams('new=bash&page=4'), {
      search: 'a b',
      page: 0,
      size: 25,
    })
    expect(written.toString()).toBe('new=bash&search=a+b&size=25')
    const back = readTemplateListParams(written)
    expect(back).toEqual({ search: 'a b', page: 0, size: 25 })
  })
})
