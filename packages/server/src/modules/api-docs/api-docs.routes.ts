import fastifySwagger, { type StaticDocumentSpec } from '@fastify/swagger'
import fastifySwaggerUi from '@fastify/swagger-ui'
import { apiDocsPage, buildOpenApiDocument, openApiDocument } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { VERSION } from '../../version.js'

/**
 * Where the API is reached, as a path of this origin: the path part of the public address
 * when it has one (a server behind a proxy under `/flagman`), else `/`. A path rather than
 * the whole address keeps "try it out" on the origin the page came from.
 */
export function publicBasePath(webHost: string): string {
  try {
    return new URL(webHost).pathname.replace(/\/+$/, '') || '/'
  } catch {
    return '/'
  }
}

/**
 * Swagger UI sets style attributes and writes a `<style>` element at run time; its answers
 * (the page and its files under `/api/docs/`) alone allow inline styles. Scripts stay
 * `'self'` only.
 */
function allowInlineStyles(policy: string): string {
  return policy.replace(/style-src 'self'(?: 'nonce-[^']*')?/, "style-src 'self' 'unsafe-inline'")
}

/**
 * `GET /api/openapi.json`: the OpenAPI 3.1 document generated from the contract, and
 * `GET /api/docs`: the same rendered by Swagger UI, whose files are served from here (the
 * page fetches nothing from elsewhere, and no online validator).
 */
export async function apiDocsRoutes(app: FastifyInstance): Promise<void> {
  const document = buildOpenApiDocument(undefined, {
    version: VERSION,
    serverUrl: publicBasePath(app.config.webHost),
  })
  app.get(openApiDocument.path, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(document),
  )
  await app.register(fastifySwagger, {
    mode: 'static',
    // An OpenAPI 3.1 document; the plugin's types know 3.0 only, and it serves it unchanged.
    specification: { document } as unknown as StaticDocumentSpec,
  })
  await app.register(fastifySwaggerUi, {
    routePrefix: apiDocsPage.path,
    uiConfig: { validatorUrl: null, deepLinking: true },
    theme: {
      title: 'Flagman API reference',
      // The bar that explores other documents and shows the plugin's logo is of no use here.
      css: [{ filename: 'flagman.css', content: '.swagger-ui .topbar { display: none; }\n' }],
    },
    transformStaticCSP: allowInlineStyles,
  })
}
