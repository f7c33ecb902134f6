import { z } from 'zod'

/** Every error response has this body; `error` is a sentence a person can act on. */
export const ErrorBody = z.object({
  error: z.string(),
  inUse: z.boolean().optional(),
})
export type ErrorBody = z.infer<typeof ErrorBody>

/**
 * Turns schema issues into one readable sentence, naming the field:
 * "max_parallel_tasks: must be 0 or greater".
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const first = issues[0]
  if (!first) return 'Invalid request'
  if (first.code === 'unrecognized_keys') {
    const where = first.path.length ? ` in ${first.path.join('.')}` : ''
    return `Unknown field${first.keys.length > 1 ? 's' : ''}${where}: ${first.keys.join(', ')}`
  }
  const path = first.path.map(String).join('.')
  let message = first.message
  if (first.code === 'invalid_type' && /received undefined$/.test(message)) message = 'is required'
  if (!path) return message
  // Messages written for a field already name it ("Project name can not be empty").
  const field = String(first.path[first.path.length - 1] ?? '')
  const mentions = [field, field.replace(/_/g, ' ')].some((f) =>
    message.toLowerCase().includes(f.toLowerCase()),
  )
  return mentions ? message : `${path}: ${message}`
}
