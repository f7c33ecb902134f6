import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { AppError, TooManyRequestsError } from './errors.js'

/** Fastify's own request errors, turned into sentences a person can act on. */
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Content-Type must be application/json',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty; send a JSON object or no Content-Type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
}

/**
 * Constraint violations reported by the database drivers (SQLite, PostgreSQL, MySQL). The
 * services check first, but two requests racing each other can still hit a constraint;
 * that is a conflict the caller can retry, not a server error.
 */
const UNIQUE_CODES = new Set([
  'SQLITE_CONSTRAINT_UNIQUE',
  'SQLITE_CONSTRAINT_PRIMARYKEY',
  '23505',
  'ER_DUP_ENTRY',
])
const REFERENCE_CODES = new Set([
  'SQLITE_CONSTRAINT_FOREIGNKEY',
  '23503',
  'ER_ROW_IS_REFERENCED_2',
  'ER_NO_REFERENCED_ROW_2',
])

function constraintMessage(error: { code?: unknown }): string | null {
  const code = typeof error.code === 'string' ? error.code : ''
  if (UNIQUE_CODES.has(code)) {
    return 'This conflicts with an entry that already exists (perhaps just created by another request); reload and try again'
  }
  if (REFERENCE_CODES.has(code)) {
    return 'This refers to something that no longer exists or is still in use; reload and try again'
  }
  return null
}

/**
 * Errors Fastify finds before routing (a malformed %-escape or an over-long part of the
 * address); its own answer would not be `{"error": …}`. Passed as `frameworkErrors`.
 */
export function handleFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const [status, message] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [414, 'A part of the address is too long']
      : error.code === 'FST_ERR_BAD_URL'
        ? [400, 'The address is not valid: it holds a malformed %-escape']
        : [error.statusCode ?? 400, error.message]
  void reply.status(status).header('Cache-Control', 'no-store').send({ error: message })
}

/** One error handler for the whole API: every failure leaves as `{"error": …}`. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      if (error instanceof TooManyRequestsError) {
        reply.header('Retry-After', String(error.retryAfterSeconds))
      }
      return reply.status(error.status).send({ error: error.message, ...error.extra })
    }
    if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
      // The parser's message can quote part of the body, which may hold a secret; keep only
      // where the problem is.
      const position = /position (\d+)/.exec(error.message)?.[1]
      const where = position ? ` (at character ${position})` : ''
      return reply.status(400).send({ error: `Malformed JSON body${where}` })
    }
    const conflict = constraintMessage(error)
    if (conflict) {
      request.log.info({ err: error }, 'database constraint refused a write')
      return reply.status(409).send({ error: conflict })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const message = (error.code && FASTIFY_MESSAGES[error.code]) ?? error.message
      return reply.status(status).send({ error: message })
    }
    request.log.error({ err: error }, 'request failed')
    return reply.status(500).send({ error: 'Internal server error; the server log has details' })
  })
}
