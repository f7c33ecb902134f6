import type { z } from 'zod'
import type { ExtraAnswer, ExtraRoute } from '../extra-routes.js'
import type { Access, RouteDef } from '../http.js'
import { accessExtension, describeAccess, errorResponses, SIGNED_IN_SECURITY } from './access.js'
import type { Direction, SchemaConverter } from './json-schema.js'
import type { Answer, RouteNotes } from './route-notes.js'
import type { JsonObject, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './types.js'

/** What an operation is built from: a contract route or an extra route, with its name. */
export interface OperationSource {
  name: string
  method: string
  path: string
  access: Access
  params?: z.ZodType
  query?: z.ZodType
  summary?: string
  description?: string
}

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value

/** `/api/project/:project_id` → `/api/project/{project_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')
}

/** `keyList` → "Key list". */
function humanize(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()
  return words.charAt(0).toUpperCase() + words.slice(1)
}

/** First meaningful path segment: the domain an operation is listed under. */
const TAG_OF_SEGMENT: Record<string, string> = {
  project: 'projects',
  user: 'users',
  info: 'system',
  ping: 'system',
  health: 'system',
  options: 'system',
  internal: 'runner protocol',
  ws: 'realtime',
  'openapi.json': 'documentation',
  docs: 'documentation',
  me: 'team',
  role: 'team',
  backup: 'projects',
}

export function tagOf(path: string): string {
  const segments = path.split('/').filter((s) => s !== '' && s !== 'api')
  if (segments[0] === 'terraform') return 'terraform backend'
  if (segments.includes('terraform')) return 'terraform'
  if (segments[0] === 'integrations') return 'integration receiver'
  let segment = segments[0] ?? 'api'
  if (segment === 'project' && segments.length > 2) segment = segments[2] ?? segment
  if (segment === 'users' && segments[0] === 'project') return 'team'
  return TAG_OF_SEGMENT[segment] ?? segment
}

class OperationBuilder {
  constructor(private readonly schemas: SchemaConverter) {}

  schema(value: z.ZodType | JsonObject | null | undefined, io: Direction): JsonObject {
    if (value === null || value === undefined) return {}
    return isZod(value) ? this.schemas.toJson(value, io) : value
  }

  /** One parameter per property of the object schema; every path placeholder is one. */
  parameters(source: OperationSource): OpenApiParameter[] {
    const properties = (schema: z.ZodType | undefined) => {
      const json = schema ? this.schema(schema, 'input') : {}
      return {
        props: (json.properties ?? {}) as Record<string, JsonObject>,
        required: new Set((json.required ?? []) as string[]),
      }
    }
    const path = properties(source.params)
    const query = properties(source.query)
    const placeholders = [...source.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1])
    const parameter = (
      name: string,
      where: 'path' | 'query',
      schema: JsonObject,
      required: boolean,
    ): OpenApiParameter => {
      const { description, ...rest } = schema
      return {
        name,
        in: where,
        required,
        ...(typeof description === 'string' ? { description } : {}),
        schema: rest,
      }
    }
    return [
      ...placeholders.map((name) =>
        parameter(name as string, 'path', path.props[name as string] ?? { type: 'string' }, true),
      ),
      ...Object.entries(query.props).map(([name, schema]) =>
        parameter(name, 'query', schema, query.required.has(name)),
      ),
    ]
  }

  response(answer: Answer): OpenApiResponse {
    const response: OpenApiResponse = { description: answer.description }
    if (answer.headers) {
      response.headers = Object.fromEntries(
        Object.entries(answer.headers).map(([name, description]) => [
          name,
          { description, schema: { type: 'string' } },
        ]),
      )
    }
    if (answer.content) {
      response.content = Object.fromEntries(
        Object.entries(answer.content).map(([type, schema]) => [
          type,
          { schema: this.schema(schema, 'output') },
        ]),
      )
    }
    return response
  }

  operation(
    source: OperationSource,
    responses: Record<string, OpenApiResponse>,
    security?: Record<string, string[]>[],
  ): OpenApiOperation {
    const parameters = this.parameters(source)
    const rule = describeAccess(source.access, source.method)
    return {
      operationId: source.name,
      summary: source.summary ?? humanize(source.name),
      description: [rule, source.description].filter(Boolean).join('\n\n'),
      tags: [tagOf(source.path)],
      ...(parameters.length ? { parameters } : {}),
      responses,
      security: security ?? (source.access.kind === 'public' ? [] : SIGNED_IN_SECURITY),
      'x-access': accessExtension(source.access),
    }
  }
}

/** The operation of a contract route, with what its notes add. */
export function routeOperation(
  schemas: SchemaConverter,
  route: RouteDef,
  name: string,
  notes: RouteNotes = {},
): OpenApiOperation {
  const build = new OperationBuilder(schemas)
  const success: Answer =
    route.status === 204 || !route.response
      ? { description: route.status === 204 ? 'Done; no body.' : 'Done; empty body.' }
      : { description: 'Done.', content: { 'application/json': route.response } }
  const responses: Record<string, OpenApiResponse> = {
    [String(route.status)]: build.response(success),
    ...errorResponses({
      access: route.access,
      method: route.method,
      validatesInput: Boolean(route.params || route.query || route.body),
      namesObject: /:[a-z_]+/.test(route.path),
    }),
  }
  for (const [status, answer] of Object.entries(notes.answers ?? {})) {
    if (answer === null) delete responses[status]
    else responses[status] = build.response(answer)
  }
  const operation = build.operation(
    { ...route, name, description: notes.note },
    sortedByStatus(responses),
    notes.security,
  )
  const body =
    notes.requestBody ??
    (route.body && { description: '', required: true, content: { 'application/json': route.body } })
  if (body) {
    operation.requestBody = {
      required: body.required,
      ...(body.description ? { description: body.description } : {}),
      content: Object.fromEntries(
        Object.entries(body.content).map(([type, schema]) => [
          type,
          { schema: build.schema(schema, 'input') },
        ]),
      ),
    }
  }
  return operation
}

const toAnswer = (answer: ExtraAnswer): Answer => ({
  description: answer.description,
  ...(answer.headers ? { headers: answer.headers } : {}),
  ...(answer.contentType ? { content: { [answer.contentType]: answer.schema ?? null } } : {}),
})

/** The operation of a route mounted outside the contract router. */
export function extraOperation(
  schemas: SchemaConverter,
  route: ExtraRoute,
  name: string,
): OpenApiOperation {
  const build = new OperationBuilder(schemas)
  const responses = Object.fromEntries(
    Object.entries(route.answers).map(([status, answer]) => [
      status,
      build.response(toAnswer(answer)),
    ]),
  )
  return build.operation({ ...route, name }, responses)
}

function sortedByStatus(responses: Record<string, OpenApiResponse>) {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)))
}
