import { EXTRA_ROUTES, type ExtraRoute } from '../extra-routes.js'
import type { RouteDef } from '../http.js'
import { ROUTES } from '../routes.js'
import { SECURITY_SCHEMES } from './access.js'
import { SchemaConverter } from './json-schema.js'
import { extraOperation, openApiPath, routeOperation } from './operation.js'
import { nameFromPath, routeName } from './route-names.js'
import { EXTRA_SECURITY_SCHEMES, ROUTE_NOTES } from './route-notes.js'
import type { OpenApiDocument, OpenApiOperation, PathItem } from './types.js'

export interface OpenApiInfo {
  /** The server's version. */
  version: string
  /** Where the API is reached; `/` (this server) when not given. */
  serverUrl?: string
}

const DESCRIPTION = `The HTTP API of Flagman, wire-compatible with Semaphore UI's. Generated from the contract the server itself validates every request with.

- **JSON** in and out, field names in \`snake_case\`; ids are integers, times RFC 3339 strings.
- **Errors** answer \`{"error": "<a sentence>"}\` (some add \`"inUse": true\`); an unknown path under \`/api\` answers 404.
- **Request bodies are read tolerantly**: fields a body does not declare are ignored, so clients may send back what they read. **Responses declare exactly what is sent**: nothing else is in them.
- **Signing in**: the session cookie \`semaphore\` (from \`POST /api/auth/login\`) or an API token as \`Authorization: Bearer <token>\`. Each operation states who may call it (also as \`x-access\`): project routes answer 404 to non-members and 403 to members whose role lacks the permission a change needs.
- **Browser protections**: a state-changing request from another site's page is refused (403), and so is a cookie-authenticated one whose body is not labelled \`application/json\` unless it comes from this server's own pages (415).
- The Terraform HTTP backend's own methods LOCK and UNLOCK are described on their path as \`x-lock\` and \`x-unlock\`.`

/** Where an operation goes on its path item: LOCK and UNLOCK are not OpenAPI methods. */
function slotOf(method: string): string {
  const lower = method.toLowerCase()
  return lower === 'lock' || lower === 'unlock' ? `x-${lower}` : lower
}

/**
 * The OpenAPI 3.1 document of the API, from the contract: every route of `routes` and every
 * extra route, with its parameters, bodies and answers as JSON Schema, its access rule in
 * words and as `x-access`, and its error answers. A pure function of its arguments.
 */
export function buildOpenApiDocument(
  routes: readonly RouteDef[] = ROUTES,
  info: OpenApiInfo,
  extraRoutes: readonly ExtraRoute[] = EXTRA_ROUTES,
): OpenApiDocument {
  const schemas = new SchemaConverter()
  const paths: Record<string, PathItem> = {}
  const usedIds = new Set<string>()
  const uniqueId = (name: string): string => {
    let id = name
    for (let n = 2; usedIds.has(id); n++) id = `${name}${n}`
    usedIds.add(id)
    return id
  }
  const place = (method: string, path: string, operation: OpenApiOperation) => {
    const item = (paths[openApiPath(path)] ??= {})
    item[slotOf(method)] = operation
  }
  for (const route of routes) {
    const name = uniqueId(routeName(route) ?? nameFromPath(route.method, route.path))
    place(route.method, route.path, routeOperation(schemas, route, name, ROUTE_NOTES.get(route)))
  }
  for (const route of extraRoutes) {
    const name = uniqueId(routeName(route) ?? nameFromPath(route.method, route.path))
    place(route.method, route.path, extraOperation(schemas, route, name))
  }
  const tags = new Set<string>()
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) for (const tag of operation.tags) tags.add(tag)
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Flagman API', version: info.version, description: DESCRIPTION },
    servers: [{ url: info.serverUrl ?? '/' }],
    tags: [...tags].sort().map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    components: {
      schemas: schemas.components,
      securitySchemes: { ...SECURITY_SCHEMES, ...EXTRA_SECURITY_SCHEMES },
    },
  }
}
