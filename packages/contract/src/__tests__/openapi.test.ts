import { validate, compileErrors } from '@readme/openapi-parser'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { EXTRA_ROUTES } from '../extra-routes.js'
import { access, defineRoute } from '../http.js'
import { buildOpenApiDocument, openApiPath, type OpenApiDocument } from '../openapi/index.js'
import { routeName } from '../openapi/route-names.js'
import type { OpenApiOperation } from '../openapi/types.js'
import { ROUTES } from '../routes.js'

const SLOTS: Record<string, string> = {
  get: 'GET',
  put: 'PUT',
  post: 'POST',
  delete: 'DELETE',
  options: 'OPTIONS',
  head: 'HEAD',
  patch: 'PATCH',
  'x-lock': 'LOCK',
  'x-unlock': 'UNLOCK',
}

/** Every operation of the document as "METHOD /path/{param}", LOCK and UNLOCK included. */
function operationsOf(doc: OpenApiDocument): Map<string, OpenApiOperation> {
  const found = new Map<string, OpenApiOperation>()
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [slot, operation] of Object.entries(item)) {
      const method = SLOTS[slot]
      if (!method) throw new Error(`Unexpected key ${slot} on ${path}`)
      found.set(`${method} ${path}`, operation)
    }
  }
  return found
}

const keyOf = (route: { method: string; path: string }) =>
  `${route.method} ${openApiPath(route.path)}`

async function expectValid(doc: OpenApiDocument): Promise<void> {
  // The parser dereferences what it is given; the document under test stays as built.
  const result = await validate(structuredClone(doc) as never)
  if (!result.valid) throw new Error(compileErrors(result))
  expect(result.warnings).toEqual([])
}

const doc = buildOpenApiDocument(undefined, { version: '1.2.3' })
const operations = operationsOf(doc)

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('1.2.3')
    expect(doc.servers).toEqual([{ url: '/' }])
    await expectValid(doc)
  })

  it('has every route exactly once and nothing else', () => {
    const expected = [...ROUTES, ...EXTRA_ROUTES].map(keyOf)
    // Two routes on one method and path would collapse into one operation.
    expect(new Set(expected).size).toBe(expected.length)
    expect([...operations.keys()].sort()).toEqual([...expected].sort())
  })

  it('puts the Terraform LOCK and UNLOCK methods on their path as x-lock and x-unlock', () => {
    const item = doc.paths['/api/terraform/{alias}'] ?? {}
    expect(Object.keys(item).sort()).toEqual(['delete', 'get', 'post', 'put', 'x-lock', 'x-unlock'])
    expect(item['x-lock']?.operationId).toBe('terraformBackendLock')
    expect(item['x-unlock']?.requestBody?.content['application/json']).toBeDefined()
  })

  it('names each operation after its exported constant, uniquely', () => {
    for (const route of [...ROUTES, ...EXTRA_ROUTES]) {
      expect(routeName(route), keyOf(route)).not.toBeNull()
    }
    const ids = [...operations.values()].map((operation) => operation.operationId)
    expect(new Set(ids).size).toBe(ids.length)
    expect(operations.get('GET /api/ping')?.operationId).toBe('ping')
    expect(operations.get('GET /api/project/{project_id}/keys')?.operationId).toBe('keyList')
  })

  it('states the access rule of every operation, and credentials for all but public ones', () => {
    for (const [key, operation] of operations) {
      const rule = operation['x-access'] as { kind: string }
      expect(rule, key).toBeDefined()
      expect(operation.description, key).not.toBe('')
      if (rule.kind === 'public') continue
      expect(operation.security, key).toEqual([{ sessionCookie: [] }, { bearerToken: [] }])
    }
    expect(doc.components.securitySchemes.sessionCookie).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'semaphore',
    })
    expect(doc.components.securitySchemes.bearerToken).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    })
    const updateKey = operations.get('PUT /api/project/{project_id}/keys/{key_id}')
    expect(updateKey?.['x-access']).toEqual({
      kind: 'project',
      permission: 'manageProjectResources',
      adminOnly: false,
    })
    expect(updateKey?.description).toContain(
      'manageProjectResources permission (roles owner, manager)',
    )
  })

  it('lists the error answers each route can give, with the error body', () => {
    for (const route of ROUTES) {
      const key = keyOf(route)
      const responses = operations.get(key)?.responses ?? {}
      const statuses = Object.keys(responses)
      const a = route.access
      if (a.kind !== 'public') expect(statuses, key).toContain('401')
      if (a.kind === 'admin') expect(statuses, key).toContain(a.refusal === 401 ? '401' : '403')
      if (a.kind === 'project') expect(statuses, key).toContain('404')
      if (a.kind === 'project' && a.permission && route.method !== 'GET') {
        expect(statuses, key).toContain('403')
      }
      if (route.body) expect(statuses, key).toContain('400')
      expect(statuses, key).toContain(String(route.status))
      for (const [status, response] of Object.entries(responses)) {
        // 423 carries the lock holder's information, as Terraform expects; a 503 of the
        // readiness check is its state (which checks failed), read by load balancers.
        if (Number(status) < 400 || status === '423') continue
        if (key === 'GET /api/health/ready' && status === '503') continue
        expect(response.content?.['application/json']?.schema, `${key} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorBody',
        })
      }
    }
  })

  it('describes bodies and answers with the contract schemas', () => {
    const login = operations.get('POST /api/auth/login')
    const body = login?.requestBody?.content['application/json']?.schema as {
      properties: Record<string, unknown>
    }
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['auth', 'password']))
    expect(login?.responses['204']).toEqual({ description: 'Done; no body.' })
    expect(operations.get('GET /api/ping')?.responses['200']?.content).toHaveProperty('text/plain')
    const keys = operations.get('GET /api/project/{project_id}/keys')
    expect(keys?.parameters?.map((p) => [p.name, p.in, p.required])).toEqual(
      expect.arrayContaining([
        ['project_id', 'path', true],
        ['sort', 'query', false],
      ]),
    )
    expect(keys?.responses['200']?.content?.['application/json']?.schema).toMatchObject({
      type: 'array',
    })
  })

  it('is the same every time it is built', () => {
    expect(buildOpenApiDocument(undefined, { version: '1.2.3' })).toEqual(doc)
  })
})

describe('building from other routes', () => {
  interface Tree {
    name: string
    children: Tree[]
  }
  const Tree: z.ZodType<Tree> = z.lazy(() =>
    z.object({ name: z.string(), children: z.array(Tree) }),
  )
  const routes = [
    defineRoute({
      method: 'POST',
      path: '/api/odd/:thing_id',
      access: access.project('runProjectTasks'),
      params: z.object({ thing_id: z.string() }),
      body: z.object({
        when: z.date(),
        custom: z.custom<number>((v) => typeof v === 'number'),
        size: z.bigint(),
      }),
      response: z.object({ id: z.string().transform(Number), tree: Tree }),
      status: 201,
    }),
  ]

  it('describes what JSON Schema can not express as any value, and recursion by reference', async () => {
    const built = buildOpenApiDocument(routes, { version: '0', serverUrl: '/base' }, [])
    await expectValid(built)
    expect(built.servers).toEqual([{ url: '/base' }])
    const operation = built.paths['/api/odd/{thing_id}']?.post
    expect(operation?.operationId).toBe('postOddByThingId')
    expect(JSON.stringify(operation?.responses['201'])).toContain('#/components/schemas/')
  })
})
