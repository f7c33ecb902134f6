import { createHash, timingSafeEqual } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Db } from '@flagman/db'
import { resolveCaller } from '../../platform/auth.js'
import { ForbiddenError, UnauthorizedError } from '../../platform/errors.js'

/** The bearer token of the request exactly as sent (API tokens are matched elsewhere). */
function bearer(request: FastifyRequest): string | null {
  const match = /^bearer\s+(.+)$/i.exec(request.headers.authorization?.trim() ?? '')
  return match?.[1]?.trim() ?? null
}

/**
 * Whether `sent` is the metrics token. Both sides are hashed first, so the comparison takes
 * the same time whatever their lengths and wherever they differ.
 */
export function isMetricsToken(sent: string | null, token: string): boolean {
  if (!token || sent === null) return false
  const digest = (text: string): Buffer => createHash('sha256').update(text).digest()
  return timingSafeEqual(digest(sent), digest(token))
}

/**
 * Lets through the metrics token or a signed-in administrator (API token or session);
 * throws 401 for anyone else, 403 for a signed-in user who is not an administrator.
 */
export async function checkMetricsAccess(
  db: Db,
  metricsToken: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  if (isMetricsToken(bearer(request), metricsToken)) return
  const { actor } = await resolveCaller(db, request, reply)
  if (!actor) throw new UnauthorizedError()
  if (!actor.admin) throw new ForbiddenError()
}
