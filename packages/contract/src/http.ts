import type { z } from 'zod'
import type { PermissionName } from './common/roles.js'

/**
 * Who may call a route.
 * - public: anyone.
 * - auth: any signed-in user.
 * - admin: global admins only (403 otherwise, or 401 where the compatible API answers so).
 * - self: the user named by the `user_id` path parameter, or an admin (401 otherwise).
 * - project: members of the project in `project_id` (404 otherwise); for methods other than
 *   GET and HEAD the member's role must hold `permission` (403 otherwise). Admins pass always.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'auth' }
  | { kind: 'admin'; refusal?: 401 | 403 }
  | { kind: 'self' }
  | { kind: 'project'; permission: PermissionName | null; adminOnly?: boolean }

/** LOCK and UNLOCK are the Terraform HTTP backend's own methods. */
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS' | 'LOCK' | 'UNLOCK'

export interface RouteDef<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  B extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: Method
  /** Fastify-style path, e.g. `/api/project/:project_id/users/:user_id`. */
  readonly path: string
  readonly access: Access
  readonly params?: P
  readonly query?: Q
  /**
   * The request body. Tolerant reader, strict writer: fields a body schema does not declare
   * are accepted and dropped before the handler runs (the compatible API ignores them, and
   * its clients send read-only fields back and add their own, such as `project_id`); the
   * fields it does declare keep their full validation. Responses, on the other hand, carry
   * exactly what their schema declares. Body schemas are therefore plain `z.object`s: zod
   * drops undeclared keys, and the lint refuses `z.strictObject` in the contract.
   * `ignoredFields` names what a body lost.
   */
  readonly body?: B
  /** Schema of a successful response body; absent for empty responses. */
  readonly response?: R
  /** Status of a successful response. */
  readonly status: 200 | 201 | 204
}

export function defineRoute<
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  R extends z.ZodType,
>(route: RouteDef<P, Q, B, R>): RouteDef<P, Q, B, R> {
  return route
}

export const access = {
  public: { kind: 'public' } as Access,
  auth: { kind: 'auth' } as Access,
  admin: { kind: 'admin' } as Access,
  /** Admins only; others get 401, as the compatible API answers when creating users. */
  adminElse401: { kind: 'admin', refusal: 401 } as Access,
  self: { kind: 'self' } as Access,
  project: (permission: PermissionName | null = null, adminOnly = false): Access => ({
    kind: 'project',
    permission,
    adminOnly,
  }),
}

type Infer<T> = T extends z.ZodType ? z.output<T> : never
type Input<T> = T extends z.ZodType ? z.input<T> : never

export type RouteParams<R> = R extends RouteDef<infer P> ? Input<P> : never
export type RouteQuery<R> = R extends RouteDef<z.ZodType, infer Q> ? Input<Q> : never
export type RouteBody<R> = R extends RouteDef<z.ZodType, z.ZodType, infer B> ? Input<B> : never
export type RouteResponse<R> =
  R extends RouteDef<z.ZodType, z.ZodType, z.ZodType, infer Res> ? Infer<Res> : never

/** Fills `:name` placeholders of a route path. */
export function buildPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${path}`)
    return encodeURIComponent(String(value))
  })
}
