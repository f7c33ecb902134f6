import { RUNNER_TOKEN_HEADER } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyRequest } from 'fastify'
import { NotFoundError, UnauthorizedError } from '../../platform/errors.js'
import { hashRunnerToken } from './runner-tokens.js'
import { findRunnerByTokenHash, type RunnerRow } from './runners.repository.js'

/**
 * The runner a request comes from, by its `X-Runner-Token`. Looked up in the database on
 * every call (nothing cached), so a deleted runner is refused at once. The lookup is by the
 * token's hash, which tells nothing of how much of a guessed token was right.
 */
export async function authenticateRunner(db: Db, request: FastifyRequest): Promise<RunnerRow> {
  const header = request.headers[RUNNER_TOKEN_HEADER]
  const token = Array.isArray(header) ? header[0] : header
  if (!token) throw new UnauthorizedError('Invalid token')
  const runner = await findRunnerByTokenHash(db.kysely, hashRunnerToken(token))
  if (!runner) throw new NotFoundError('Runner')
  return runner
}
