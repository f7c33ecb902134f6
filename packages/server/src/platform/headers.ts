import type { FastifyInstance, FastifyReply } from 'fastify'

/**
 * The Content-Security-Policy of an answer. The console loads only its own files: scripts
 * and styles from this server, no plugins, no `<base>`, not framed by any page. Nothing runs
 * or applies inline, with one exception: the answer that serves the console's page names a
 * fresh random nonce in `style-src`, and the component library marks the `<style>` elements
 * it writes at run time with it. Other answers (API, files) name no nonce. `connect-src
 * 'self'` covers the same-origin websocket of live task output.
 */
export function contentSecurityPolicy(styleNonce?: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    styleNonce === undefined ? "style-src 'self'" : `style-src 'self' 'nonce-${styleNonce}'`,
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/** The policy of every answer but the console's page. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy()

/**
 * Headers sent with every answer; the console's page gets its own policy. The referrer policy
 * is `same-origin` rather than `no-referrer`: under `no-referrer` browsers send `Origin: null`
 * with the console's own writes, which the cross-site check refuses; `same-origin` still
 * tells other sites nothing.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
}

/** The style nonce of each answer that serves the console's page. */
const styleNonces = new WeakMap<FastifyReply, string>()

/** Lets this answer's policy allow the `<style>` elements marked with `nonce`. */
export function allowStyleNonce(reply: FastifyReply, nonce: string): void {
  styleNonces.set(reply, nonce)
}

/** Adds the security headers to every answer: console, files, API and errors. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // Every answer passes here, error answers and those of the not-found handler included.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS)
    const styleNonce = styleNonces.get(reply)
    if (styleNonce !== undefined) {
      reply.header('Content-Security-Policy', contentSecurityPolicy(styleNonce))
    }
    return payload
  })
}
