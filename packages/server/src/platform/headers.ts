import type { FastifyInstance } from 'fastify'

/**
 * The Content-Security-Policy of every answer, console and API alike. The console loads
 * only its own files: scripts and styles from this server, no plugins, no `<base>`, not
 * framed by any page. Styles also allow inline rules, because the component library writes
 * its styles into `<style>` elements at run time; scripts never run inline. `connect-src
 * 'self'` covers the same-origin websocket of live task output.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Headers sent with every answer. The referrer policy is `same-origin` rather than
 * `no-referrer`: under `no-referrer` browsers send `Origin: null` with the console's own
 * writes, which the cross-site check refuses; `same-origin` still tells other sites nothing.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
}

/** Adds the security headers to every answer: console, files, API and errors. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  // Every answer passes here, error answers and those of the not-found handler included.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS)
    return payload
  })
}
