import { z } from 'zod'
import { MAX_ID } from './fields.js'

/*
 * Keyset paging of newest-first lists. A client asks for the first page with `limit`, then
 * for each next page with `before_id` set to the id of the last row it got; every page is
 * an index range scan, however deep. Lists asked for without these answer as they always
 * did.
 */

/** Most rows one page of a list may ask for. */
export const MAX_PAGE_LIMIT = 1000

/** Only rows older than this one (with a lower id). */
export const BeforeId = z
  .string()
  .regex(/^\d{1,10}$/, 'before_id must be a positive whole number: the id of the last row seen')
  .transform(Number)
  .refine((id) => id >= 1 && id <= MAX_ID, `before_id must be between 1 and ${MAX_ID}`)

/** How many rows the page holds, 1 to `max`. */
export const PageLimit = (max: number = MAX_PAGE_LIMIT) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `limit must be a whole number from 1 to ${max}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, `limit must be a whole number from 1 to ${max}`)

/** Query of a list that pages by keyset. */
export const KeysetQuery = z.object({
  before_id: BeforeId.optional(),
  limit: PageLimit().optional(),
})
export type KeysetQuery = z.output<typeof KeysetQuery>
