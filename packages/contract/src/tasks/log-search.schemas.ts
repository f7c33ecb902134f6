import { z } from 'zod'
import { Id, MAX_ID, Timestamp } from '../common/fields.js'
import { PageLimit } from '../common/keyset.js'

/*
 * Searching task logs on the server. The text is matched literally and regardless of case:
 * characters that mean something to a search engine (`"`, `*`, `-`, `%`, `\`, NEAR…) are
 * plain text here. Every search is bounded; an answer cut short says so.
 */

/** Longest search text. */
export const MAX_SEARCH_TEXT = 200
/** Most matches one answer may ask for, within one task and across tasks. */
export const MAX_TASK_SEARCH_LIMIT = 500
export const MAX_PROJECT_SEARCH_LIMIT = 200

const SearchText = z
  .string({ error: 'q is required: the text to search for' })
  .refine((q) => q.trim() !== '', 'q must not be empty: give the text to search for')
  .refine(
    (q) => q.length <= MAX_SEARCH_TEXT,
    `q must be at most ${MAX_SEARCH_TEXT} characters long`,
  )

const TemplateIdFilter = z
  .string()
  .regex(/^\d{1,10}$/, 'template_id must be the id of a template of the project')
  .transform(Number)
  .refine((id) => id >= 1 && id <= MAX_ID, 'template_id must be the id of a template')

/** ISO-8601 date or date-time, e.g. 2026-11-25 or 2026-11-25T10:00:00Z, stored as UTC. */
const Instant = (name: string) =>
  z
    .string()
    .max(40)
    .refine(
      (text) =>
        /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(
          text,
        ) && !Number.isNaN(Date.parse(text)),
      `${name} must be a date or date-time such as 2026-11-25 or 2026-11-25T10:00:00Z`,
    )
    .transform((text) => new Date(text).toISOString())

export const TaskLogSearchQuery = z.object({
  q: SearchText,
  limit: PageLimit(MAX_TASK_SEARCH_LIMIT).optional(),
})
export type TaskLogSearchQuery = z.input<typeof TaskLogSearchQuery>

export const ProjectLogSearchQuery = z
  .object({
    q: SearchText,
    template_id: TemplateIdFilter.optional(),
    /** Only tasks created at or after this instant. */
    from: Instant('from').optional(),
    /** Only tasks created before this instant. */
    to: Instant('to').optional(),
    limit: PageLimit(MAX_PROJECT_SEARCH_LIMIT).optional(),
  })
  .refine((query) => !query.from || !query.to || query.from < query.to, {
    message: 'from must be earlier than to',
    path: ['from'],
  })
export type ProjectLogSearchQuery = z.input<typeof ProjectLogSearchQuery>

/** One matching log line. */
export const LogSearchMatch = z.object({
  /** The stored line's id. */
  id: Id,
  /** Its line number within the task (1-based); the id where the log has no numbers. */
  line: z.number().int().nonnegative(),
  time: Timestamp,
  output: z.string(),
})
export type LogSearchMatch = z.infer<typeof LogSearchMatch>

/** Why an answer may hold fewer matches than exist. */
const Bounds = {
  /** More matches exist than `limit`. */
  truncated: z.boolean(),
  /** The search hit its time or row budget before looking everywhere. */
  timed_out: z.boolean(),
}

export const TaskLogSearchResult = z.object({
  task_id: Id,
  matches: z.array(LogSearchMatch),
  ...Bounds,
})
export type TaskLogSearchResult = z.infer<typeof TaskLogSearchResult>

/** A match across tasks, with its task. */
export const ProjectLogSearchMatch = LogSearchMatch.extend({
  task_id: Id,
  template_id: Id,
  template_name: z.string(),
  task_status: z.string(),
  task_created: Timestamp,
})
export type ProjectLogSearchMatch = z.infer<typeof ProjectLogSearchMatch>

export const ProjectLogSearchResult = z.object({
  /** Newest lines first. */
  matches: z.array(ProjectLogSearchMatch),
  ...Bounds,
})
export type ProjectLogSearchResult = z.infer<typeof ProjectLogSearchResult>
