import { compileErrors, validate } from '@readme/openapi-parser'
import { buildOpenApiDocument, openApiPath, type OpenApiDocument } from '@flagman/contract'
import type * as FastifyModule from 'fastify'
import type { RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { VERSION } from '../../src/version.js'
import { dialects } from '../support/databases.js'
import { startInProcessServer, type InProcessServer } from '../support/in-process.js'
import { startTestServer, type TestServer } from '../support/server.js'

/** Every route an app built in this process mounts, as "METHOD /path", in mounting order. */
const mounted = vi.hoisted(() => [] as string[])

// The app is built inside `startServer`; an onRoute hook added to each Fastify instance as it
// is created sees every route, whichever module or plugin mounts it.
vi.mock('fastify', async (importOriginal) => {
  const actual = await importOriginal<typeof FastifyModule>()
  const create = ((options?: Parameters<typeof actual.default>[0]) => {
    const app = actual.default(options)
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) mounted.push(`${method} ${route.url}`)
    })
    return app
  }) as typeof actual.default
  return { ...actual, default: create }
})

const METHOD_OF_SLOT: Record<string, string> = { 'x-lock': 'LOCK', 'x-unlock': 'UNLOCK' }

/** The document's operations as "METHOD /path/{param}". */
function documented(doc: OpenApiDocument): Set<string> {
  const operations = new Set<string>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const slot of Object.keys(item)) {
      operations.add(`${METHOD_OF_SLOT[slot] ?? slot.toUpperCase()} ${path}`)
    }
  }
  return operations
}

/**
 * The API routes among mounted ones, in the document's spelling. HEAD routes Fastify adds to
 * each GET are left out, and so are the files of the docs page (under `/api/docs/`).
 */
function apiRoutes(routes: readonly string[]): Set<string> {
  const api = new Set<string>()
  for (const route of routes) {
    const [method = '', url = ''] = route.split(' ')
    if (method === 'HEAD' || !(url === '/api' || url.startsWith('/api/'))) continue
    if (url.startsWith('/api/docs/')) continue
    api.add(`${method} ${openApiPath(url)}`)
  }
  return api
}

const missingFrom = (all: Set<string>, some: Set<string>) => [...all].filter((r) => !some.has(r))

async function expectValid(doc: unknown): Promise<void> {
  const result = await validate(structuredClone(doc) as never)
  if (!result.valid) throw new Error(compileErrors(result))
}

describe.each(dialects())('API document (%s)', (dialect) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(dialect)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
  })

  it('answers the OpenAPI document at /api/openapi.json, for anyone', async () => {
    const res = await server.fetch('/api/openapi.json')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    const doc = (await res.json()) as OpenApiDocument
    await expectValid(doc)
    expect(doc.info.version).toBe(VERSION)
    expect(doc.servers).toEqual([{ url: '/' }])
    expect(doc).toEqual(buildOpenApiDocument(undefined, { version: VERSION, serverUrl: '/' }))
  })

  it('renders it at /api/docs with files of its own, under a policy for them alone', async () => {
    const res = await server.fetch('/api/docs')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const policy = res.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("script-src 'self';")
    expect(policy).toContain("style-src 'self' 'unsafe-inline';")
    const html = await res.text()
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] as string)
    expect(assets.filter((a) => a.endsWith('.js'))).toHaveLength(3)
    expect(assets.filter((a) => a.endsWith('.css'))).toHaveLength(3)
    for (const asset of assets) {
      // Nothing from elsewhere: every file the page names is this server's.
      expect(asset, asset).toMatch(/^\/api\/docs\//)
      const file = await server.fetch(asset)
      expect(file.status, asset).toBe(200)
      expect((await file.arrayBuffer()).byteLength, asset).toBeGreaterThan(0)
    }
    const initializer = await (await server.fetch('/api/docs/static/swagger-initializer.js')).text()
    expect(initializer).toContain('"validatorUrl":null')
    const rendered = (await (await server.fetch('/api/docs/json')).json()) as OpenApiDocument
    expect(rendered.info.version).toBe(VERSION)
    // The page with a trailing slash names its files relative to itself.
    const slashed = await server.fetch('/api/docs/')
    expect(slashed.status).toBe(200)
    expect(await slashed.text()).toContain('src="./static/swagger-ui-bundle.js"')
  })

  it('keeps the strict policy everywhere else, and unknown paths not found', async () => {
    const ping = await server.fetch('/api/ping')
    expect(ping.headers.get('content-security-policy')).toContain("style-src 'self';")
    const json = await server.fetch('/api/openapi.json')
    expect(json.headers.get('content-security-policy')).not.toContain('unsafe-inline')
    for (const path of ['/api/docs/nothing', '/api/docs/static/nothing.js', '/api/nothing']) {
      const res = await server.fetch(path)
      expect(res.status, path).toBe(404)
      expect(await res.json(), path).toEqual({ error: 'Not Found' })
    }
  })
})

describe.each(dialects())('every mounted API route is in the document (%s)', (dialect) => {
  let server: InProcessServer

  beforeAll(async () => {
    server = await startInProcessServer(dialect)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
  })

  it('matches the routes the server mounts, one for one', () => {
    const routes = apiRoutes(mounted)
    // The hook saw the app being built: the contract routes and those mounted by hand.
    expect(routes).toContain('GET /api/ping')
    expect(routes).toContain('LOCK /api/terraform/{alias}')
    expect(routes).toContain('GET /api/auth/oidc/{provider_id}/redirect')
    expect(routes).toContain('GET /api/ws')
    expect(routes).toContain('GET /api/docs')
    const doc = buildOpenApiDocument(undefined, { version: VERSION })
    const operations = documented(doc)
    expect(missingFrom(routes, operations), 'mounted but not documented').toEqual([])
    expect(missingFrom(operations, routes), 'documented but not mounted').toEqual([])
  })

  it('would name a route mounted without being documented', () => {
    const routes = apiRoutes([...mounted, 'POST /api/project/:project_id/secret', 'HEAD /api/x'])
    const operations = documented(buildOpenApiDocument(undefined, { version: VERSION }))
    expect(missingFrom(routes, operations)).toEqual(['POST /api/project/{project_id}/secret'])
  })
})
