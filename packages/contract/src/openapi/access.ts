import { ROLE_PERMISSIONS, Permission, type PermissionName } from '../common/roles.js'
import type { Access } from '../http.js'
import { ERROR_BODY_REF } from './json-schema.js'
import type { JsonObject, OpenApiResponse } from './types.js'

/** Methods that only read: project permissions are never asked of them. */
const READ_METHODS = new Set(['GET', 'HEAD'])

/** Signed-in callers use the session cookie or an API token, whichever they have. */
export const SIGNED_IN_SECURITY: Record<string, string[]>[] = [
  { sessionCookie: [] },
  { bearerToken: [] },
]

export const SECURITY_SCHEMES: Record<string, JsonObject> = {
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'semaphore',
    description: 'The session cookie set by `POST /api/auth/login` or single sign-on.',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API token (`POST /api/user/tokens`) as `Authorization: Bearer <token>`; wins over the cookie.',
  },
}

/** The roles whose permissions include `permission`, e.g. "owner, manager". */
function rolesWith(permission: PermissionName): string {
  return Object.entries(ROLE_PERMISSIONS)
    .filter(([, bits]) => (bits & Permission[permission]) !== 0)
    .map(([role]) => role)
    .join(', ')
}

/** Whether a request with this method is checked against the route's project permission. */
function needsPermission(access: Access, method: string): access is Access & { kind: 'project' } {
  return access.kind === 'project' && access.permission !== null && !READ_METHODS.has(method)
}

/** The access rule in words, for the operation's description. */
export function describeAccess(access: Access, method: string): string {
  switch (access.kind) {
    case 'public':
      return 'Public: no sign-in needed.'
    case 'auth':
      return 'Any signed-in user.'
    case 'admin':
      return `Administrators only (others get ${access.refusal ?? 403}).`
    case 'self':
      return 'The user named by `user_id` themselves, or an administrator (others get 401).'
    case 'project': {
      const parts = [
        'Project members and administrators (others get 404, as for a missing project).',
      ]
      if (access.adminOnly) parts.push('Only administrators may do this (members get 401).')
      if (access.permission && needsPermission(access, method)) {
        parts.push(
          `Needs the ${access.permission} permission (roles ${rolesWith(access.permission)}); other members get 403.`,
        )
      }
      return parts.join(' ')
    }
  }
}

/** The rule as an extension object: the contract's Access, unchanged. */
export function accessExtension(access: Access): JsonObject {
  return { ...access }
}

const errorAnswer = (description: string): OpenApiResponse => ({
  description,
  content: { 'application/json': { schema: { ...ERROR_BODY_REF } } },
})

export interface ErrorContext {
  access: Access
  method: string
  /** Whether the request has path parameters, a query or a body that are validated. */
  validatesInput: boolean
  /** Whether the path names something that may not exist. */
  namesObject: boolean
}

/** The error answers a route can give because of its input and its access rule. */
export function errorResponses(ctx: ErrorContext): Record<string, OpenApiResponse> {
  const { access, method } = ctx
  const errors: Record<string, OpenApiResponse> = {}
  if (ctx.validatesInput) {
    errors['400'] = errorAnswer('Invalid path parameter, query or body; `error` says which.')
  }
  if (access.kind !== 'public') {
    const refusals = ['Not signed in, or the session needs its second factor (`TOTP_REQUIRED`)']
    if (access.kind === 'self') refusals.push('or not this user and not an administrator')
    if (access.kind === 'admin' && access.refusal === 401) refusals.push('or not an administrator')
    if (access.kind === 'project' && access.adminOnly) refusals.push('or not an administrator')
    errors['401'] = errorAnswer(`${refusals.join(', ')}.`)
  }
  if (access.kind === 'admin' && access.refusal !== 401) {
    errors['403'] = errorAnswer('Not an administrator.')
  }
  if (needsPermission(access, method)) {
    errors['403'] = errorAnswer(`The caller's project role lacks ${access.permission}.`)
  }
  if (access.kind === 'project') {
    errors['404'] = errorAnswer('No such project or object, or the caller is not a member.')
  } else if (ctx.namesObject) {
    errors['404'] = errorAnswer('No such object.')
  }
  return errors
}
