import { describeIssues, MAX_ID, type RouteDef } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { Config } from '../config.js'
import type { SecretBox } from '../lib/secret-box.js'
import { enforceAccess, requireSignedIn } from './access.js'
import type { Actor, ProjectAccess } from './actor.js'
import type { Reuse } from './answer-cache.js'
import { resolveCaller } from './auth.js'
import { BadRequestError, UnauthorizedError } from './errors.js'
import { compileResponseSerializer, type ResponseSerializer } from './response-serializer.js'

type Out<T> = [T] extends [z.ZodType] ? z.output<T> : undefined

export interface HandlerContext<R extends RouteDef> {
  params: Out<NonNullable<R['params']>>
  query: Out<NonNullable<R['query']>>
  body: Out<NonNullable<R['body']>>
  /** The signed-in user; routes that are not public always have one. */
  actor: Actor
  /** The caller's role in the route's project (project routes only). */
  project: ProjectAccess
  db: Db
  config: Config
  /** Encrypts and decrypts secrets at rest. */
  secrets: SecretBox
  request: FastifyRequest
  reply: FastifyReply
}

type Result<R extends RouteDef> =
  NonNullable<R['response']> extends z.ZodType ? z.input<NonNullable<R['response']>> : void

export type Handler<R extends RouteDef> = (ctx: HandlerContext<R>) => Promise<Result<R>>

/** Where the first text (value or key) holding a NUL character is, or null when none does. */
function findNul(value: unknown, path: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path : null
  if (typeof value !== 'object' || value === null) return null
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key
    if (key.includes('\u0000')) return at
    const found = findNul(item, at)
    if (found !== null) return found
  }
  return null
}

/**
 * The project id of a project route's path, read before the path is validated so that the
 * caller and their membership come in one statement; a malformed id gives none, and the
 * validation that follows answers it. An id beyond the id column's range gives none either:
 * PostgreSQL would refuse the whole statement rather than find nothing.
 */
function projectIdOf(params: Record<string, unknown>): number | undefined {
  const raw = params.project_id
  if (typeof raw !== 'string' || !/^\d{1,10}$/.test(raw)) return undefined
  const id = Number(raw)
  return id <= MAX_ID ? id : undefined
}

function parse<T extends z.ZodType>(schema: T | undefined, value: unknown, what: string): unknown {
  if (!schema) return undefined
  // PostgreSQL can not store NUL in text and fails the whole statement, so it is refused here.
  const nul = findNul(value, '')
  if (nul !== null) {
    const where = nul ? `${nul}: ` : ''
    const prefix = what === 'body' ? '' : `Invalid ${what}: `
    throw new BadRequestError(`${prefix}${where}text can not contain the NUL character`)
  }
  const result = schema.safeParse(value ?? (what === 'body' ? undefined : {}))
  if (!result.success) {
    const message = describeIssues(result.error.issues)
    throw new BadRequestError(what === 'body' ? message : `Invalid ${what}: ${message}`)
  }
  return result.data
}

/**
 * Whether every answer is also checked by a full parse of its response schema, refinements
 * included, and compared with what the compiled serialiser wrote. On under tests, so that
 * they catch a handler drifting from the contract; costly, so off in production.
 */
export function strictResponses(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'test' || env.FLAGMAN_STRICT_RESPONSES === '1'
}

/** The text of a route's answer: compiled once, with the strict check when it is on. */
function responseWriter(route: RouteDef, strict: boolean): ResponseSerializer | null {
  const schema = route.response
  if (route.status === 204 || !schema) return null
  const write = compileResponseSerializer(schema)
  if (!strict) return write
  return (result) => {
    const expected = JSON.stringify(schema.parse(result))
    const text = write(result)
    if (text !== expected) {
      throw new Error(`The compiled serialiser of ${route.method} ${route.path} disagrees with zod`)
    }
    return text
  }
}

export interface MountOptions {
  /**
   * A read route whose answer depends only on the database, the caller and the URL: its
   * serialised answer is kept and served again until a write could have changed it.
   */
  reuse?: Reuse
}

/**
 * Mounts one contract route: resolves the caller, enforces the route's access rule,
 * validates params, query and body, runs the handler, and serialises the answer with the
 * serialiser compiled from the response schema (so only declared fields ever leave the
 * server).
 */
export function mount<R extends RouteDef>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R>,
  options: MountOptions = {},
): void {
  const writeResponse = responseWriter(route, strictResponses())
  if (options.reuse !== undefined && route.method !== 'GET') {
    throw new Error(`${route.method} ${route.path} changes data: its answer can not be reused`)
  }
  const reuse = options.reuse
  app.route({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      const rawParams = (request.params ?? {}) as Record<string, unknown>
      const { actor, membership } = await resolveCaller(
        app.db,
        request,
        reply,
        route.access.kind === 'project' ? projectIdOf(rawParams) : undefined,
      )
      requireSignedIn(route.access, actor)
      const params = parse(route.params, rawParams, 'path parameter') as HandlerContext<R>['params']
      const project = await enforceAccess(app.db, {
        access: route.access,
        method: request.method,
        actor,
        params: rawParams,
        membership,
      })
      const query = parse(
        route.query,
        request.query,
        'query parameter',
      ) as HandlerContext<R>['query']
      let body: unknown = undefined
      if (route.body) {
        if (request.body === undefined || request.body === null) {
          throw new BadRequestError('Request body must be a JSON object')
        }
        body = parse(route.body, request.body, 'body')
      }
      const ctx = {
        params,
        query,
        body: body as HandlerContext<R>['body'],
        get actor(): Actor {
          if (!actor) throw new UnauthorizedError()
          return actor
        },
        project: project as ProjectAccess,
        db: app.db,
        config: app.config,
        secrets: app.secrets,
        request,
        reply,
      }
      if (reuse !== undefined && app.answers.enabled) {
        // After the access check: the cache only saves computing the answer.
        const key = `${actor?.id ?? 0} ${request.url}`
        const kept = await app.answers.answer(key, reuse, async () =>
          writeResponse?.(await handler(ctx as HandlerContext<R>)),
        )
        reply.status(route.status)
        if (kept === undefined) return reply.send()
        return reply.type('application/json; charset=utf-8').send(kept)
      }
      const result = await handler(ctx as HandlerContext<R>)
      if (reply.sent) return reply
      reply.status(route.status)
      if (!writeResponse) return reply.send()
      const text = writeResponse(result)
      if (text === undefined) return reply.send()
      return reply.type('application/json; charset=utf-8').send(text)
    },
  })
}
