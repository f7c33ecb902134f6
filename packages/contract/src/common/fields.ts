import { z } from 'zod'

/** Longest name, title or login accepted anywhere; columns are varchar(255). */
export const MAX_NAME_LENGTH = 255

/** Database ids: positive integers. */
export const Id = z.number().int().positive()

/** Largest id any table can hold (id columns are 32-bit on every dialect). */
export const MAX_ID = 2_147_483_647

/**
 * A path id: decimal digits only, turned into a number. Larger than any id can be is
 * refused here, because PostgreSQL fails a comparison of an integer column with it.
 */
export const PathId = z
  .string()
  .regex(/^\d{1,10}$/, 'must be a positive whole number')
  .transform(Number)
  .refine((id) => id <= MAX_ID, `must be at most ${MAX_ID}`)

/** An id sent in a request body, bounded like PathId. */
export const InputId = (label: string) =>
  z
    .number({ error: typeError(label, 'a number') })
    .int(`${label} must be a whole number`)
    .positive(`${label} must be a positive number`)
    .max(MAX_ID, `${label} must be at most ${MAX_ID}`)

/** UTC timestamp as sent on the wire (RFC 3339). */
export const Timestamp = z.string()

/** Error text for a value of the wrong type, or "is required" when it is missing. */
export function typeError(label: string, expected: string) {
  return (issue: { input?: unknown }) =>
    issue.input === undefined ? `${label} is required` : `${label} must be ${expected}`
}

/** A required, trimmed, non-empty name of at most 255 characters. */
export const RequiredName = (label: string) =>
  z
    .string({ error: typeError(label, 'a string') })
    .trim()
    .min(1, `${label} can not be empty`)
    .max(MAX_NAME_LENGTH, `${label} must be at most ${MAX_NAME_LENGTH} characters`)

export const OptionalText = (label: string, max = MAX_NAME_LENGTH) =>
  z
    .string({ error: typeError(label, 'a string') })
    .max(max, `${label} must be at most ${max} characters`)

export const Bool = (label: string) => z.boolean({ error: typeError(label, 'true or false') })
