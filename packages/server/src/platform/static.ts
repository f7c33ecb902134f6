import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { allowStyleNonce } from './headers.js'

/**
 * What the console's build writes where each answer puts its nonce (Vite's `html.cspNonce`,
 * set in the console's `vite.config.ts`): on its own script and link tags and on
 * `<meta property="csp-nonce">`, from which the console reads it for its style elements.
 */
export const CSP_NONCE_PLACEHOLDER = '__FLAGMAN_CSP_NONCE__'

/**
 * Serves the built console at `/`. Paths under `/api` never fall back to the console: an
 * unknown API path is a 404 with an error body. Other unknown paths without a file
 * extension are console routes and get `index.html`.
 */
export async function registerStatic(app: FastifyInstance, webDir: string): Promise<void> {
  const indexFile = join(webDir, 'index.html')
  const hasConsole = webDir !== '' && existsSync(indexFile)
  if (hasConsole) {
    // A wildcard route (rather than one route per file found at start) so that a rebuilt
    // console is served without a restart. Hashed assets never change and are cached long.
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: true,
      index: false,
      // The plugin's own Cache-Control would replace ours, so it is off and set here.
      cacheControl: false,
      setHeaders(res, filePath) {
        res.setHeader(
          'Cache-Control',
          /[\\/]assets[\\/]/.test(filePath)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=0',
        )
      },
    })
  }
  const sendConsole = (reply: FastifyReply): FastifyReply => {
    if (!hasConsole) {
      return reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><title>Flagman</title><p>The console has not been built. Run <code>npm run build</code>.</p>',
        )
    }
    // index.html is small and changes only on rebuild; read it per request so a rebuild
    // needs no restart. Each answer gets a fresh nonce, so it must never be stored and
    // served again.
    const nonce = randomBytes(18).toString('base64')
    allowStyleNonce(reply, nonce)
    const page = readFileSync(indexFile, 'utf8').replaceAll(CSP_NONCE_PLACEHOLDER, () => nonce)
    return reply.header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(page)
  }
  // The static wildcard would answer `/` itself, with 403 for a folder without an index, and
  // `/index.html` without its nonce.
  app.get('/', (_request, reply) => sendConsole(reply))
  if (hasConsole) app.get('/index.html', (_request, reply) => sendConsole(reply))
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? ''
    if (path === '/api' || path.startsWith('/api/')) {
      return reply.status(404).send({ error: 'Not Found' })
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ error: 'Not Found' })
    }
    const lastSegment = path.split('/').pop() ?? ''
    if (lastSegment.includes('.')) {
      return reply.status(404).type('text/plain').send('Not Found')
    }
    return sendConsole(reply)
  })
}
