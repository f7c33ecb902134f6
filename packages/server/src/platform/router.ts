import { describeIssues, type RouteDef } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import type { Config } from '../config.js'
import type { SecretBox } from '../lib/secret-box.js'
import { enforceAccess, requireSignedIn } from './access.js'
import type { Actor, ProjectAccess } from './actor.js'
import { resolveActor } from './auth.js'
import { BadRequestError, UnauthorizedError } from './errors.js'

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
 * Mounts one contract route: resolves the caller, enforces the route's access rule,
 * validates params, query and body, runs the handler, and serialises the answer through
 * the response schema (so only declared fields ever leave the server).
 */
export function mount<R extends RouteDef>(
  app: FastifyInstance,
  route: R,
  handler: Handler<R>,
): void {
  app.route({
    method: route.method,
    url: route.path,
    handler: async (request, reply) => {
      const actor = await resolveActor(app.db, request, reply)
      requireSignedIn(route.access, actor)
      const rawParams = (request.params ?? {}) as Record<string, unknown>
      const params = parse(route.params, rawParams, 'path parameter') as HandlerContext<R>['params']
      const project = await enforceAccess(app.db, {
        access: route.access,
        method: request.method,
        actor,
        params: rawParams,
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
      const result = await handler(ctx as HandlerContext<R>)
      if (reply.sent) return reply
      reply.status(route.status)
      if (route.status === 204 || !route.response) return reply.send()
      return reply.send(route.response.parse(result))
    },
  })
}
