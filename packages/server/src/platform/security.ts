import type { FastifyInstance, FastifyRequest } from 'fastify'
import { hasBearer, SESSION_COOKIE } from './auth.js'
import { AppError, ForbiddenError } from './errors.js'

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** Whether the Origin names this server (as reached through a trusted proxy, if any). */
function sameOrigin(request: FastifyRequest, origin: string): boolean {
  try {
    return new URL(origin).host === request.host
  } catch {
    return false
  }
}

/**
 * Whether a browser sent the request from another site's page: its Origin names another
 * host (a different port counts), or is "null" (sandboxed frames, some redirects). Requests
 * without an Origin header (scripts, command-line clients) are not cross-site.
 */
export function isCrossSite(request: FastifyRequest): boolean {
  const origin = request.headers.origin
  if (!origin) return false
  return origin === 'null' || !sameOrigin(request, origin)
}

/**
 * Browser protections for the API:
 * - responses are never cached;
 * - a state-changing request from another site's page is refused, and so is a cookie-
 *   authenticated one that is not JSON and shows no same-origin Origin, so cross-site forms
 *   cannot act for a signed-in user, even from browsers that send no Origin.
 *   Scripts without an Origin header and bearer-token clients are not affected.
 */
export function registerSecurity(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/') && request.url !== '/api') return
    reply.header('Cache-Control', 'no-store')
    if (!UNSAFE_METHODS.has(request.method)) return
    if (isCrossSite(request)) throw new ForbiddenError('Cross-site request refused')
    const usesCookie = request.cookies[SESSION_COOKIE] !== undefined && !hasBearer(request)
    const type = request.headers['content-type']
    // A body without a Content-Type is refused too: a page can send one with a bare Blob.
    const hasBody =
      request.headers['transfer-encoding'] !== undefined ||
      Number(request.headers['content-length'] ?? 0) > 0
    const labelled = type !== undefined && /^application\/json\b/i.test(type)
    // A same-origin Origin (checked above) proves the page is this server's own, whatever
    // it labels its body: the compatible console sends a restored backup as a form.
    const ownPage = request.headers.origin !== undefined
    if (usesCookie && !ownPage && (type !== undefined || hasBody) && !labelled) {
      throw new AppError(415, 'Content-Type must be application/json')
    }
  })
}
