/*
 * The template list's search and page, kept in the page address (`?search=…&page=2&size=50`)
 * so they survive a reload and can be shared.
 */

export const TEMPLATE_PAGE_SIZES = [25, 50, 100, 500] as const
export const DEFAULT_TEMPLATE_PAGE_SIZE = 50

export interface TemplateListParams {
  search: string
  /** 0-based. */
  page: number
  size: number
}

function wholeNumber(raw: string | null): number | null {
  return raw !== null && /^\d{1,6}$/.test(raw) ? Number(raw) : null
}

export function readTemplateListParams(params: URLSearchParams): TemplateListParams {
  const size = wholeNumber(params.get('size'))
  const page = wholeNumber(params.get('page'))
  return {
    search: (params.get('search') ?? '').slice(0, 255),
    page: page !== null && page >= 1 ? page - 1 : 0,
    size: TEMPLATE_PAGE_SIZES.find((allowed) => allowed === size) ?? DEFAULT_TEMPLATE_PAGE_SIZE,
  }
}

/** `current` with the list's parameters set; defaults are left out of the address. */
export function writeTemplateListParams(
  current: URLSearchParams,
  list: TemplateListParams,
): URLSearchParams {
  const next = new URLSearchParams(current)
  const set = (name: string, value: string | null) =>
    value === null ? next.delete(name) : next.set(name, value)
  set('search', list.search === '' ? null : list.search)
  set('page', list.page === 0 ? null : String(list.page + 1))
  set('size', list.size === DEFAULT_TEMPLATE_PAGE_SIZE ? null : String(list.size))
  return next
}
