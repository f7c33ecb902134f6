import { Permission, ROLE_PERMISSIONS, type Access, type ProjectRole } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { Actor, ProjectAccess, ProjectMembership } from './actor.js'
import { ForbiddenError, NotFoundError, UnauthorizedError } from './errors.js'

const READ_METHODS = new Set(['GET', 'HEAD'])

export interface AccessRequest {
  access: Access
  method: string
  actor: Actor | null
  /** Raw path parameters (strings), already validated by the route's params schema. */
  params: Record<string, unknown>
  /** The caller's membership of the route's project, when it was read with the caller. */
  membership?: ProjectMembership
}

/**
 * The one place that decides whether a caller may use a route. Every route declares its
 * `access` in the contract and the router calls this before the handler; handlers never
 * check roles themselves.
 *
 * Returns the caller's project standing for project routes.
 */
export async function enforceAccess(db: Db, req: AccessRequest): Promise<ProjectAccess | null> {
  const { access, actor } = req
  if (access.kind === 'public') return null
  if (!actor) throw new UnauthorizedError()
  switch (access.kind) {
    case 'auth':
      return null
    case 'admin':
      if (!actor.admin) {
        throw access.refusal === 401
          ? new UnauthorizedError('Only administrators can do this')
          : new ForbiddenError('Only administrators can do this')
      }
      return null
    case 'self':
      if (!actor.admin && Number(req.params.user_id) !== actor.id) {
        // 401 rather than 403: the compatible API answers so, and scripts rely on it.
        throw new UnauthorizedError('You can only do this for your own account')
      }
      return null
    case 'project':
      return projectAccess(db, req, access)
  }
}

/**
 * The first check, made before anything of the request is read: a route that is not public
 * answers 401 to an anonymous caller, whatever the path parameters or body look like.
 */
export function requireSignedIn(access: Access, actor: Actor | null): void {
  if (access.kind !== 'public' && !actor) throw new UnauthorizedError()
}

async function projectAccess(
  db: Db,
  req: AccessRequest,
  access: Extract<Access, { kind: 'project' }>,
): Promise<ProjectAccess> {
  const actor = req.actor as Actor
  const projectId = Number(req.params.project_id)
  const row =
    req.membership?.projectId === projectId
      ? req.membership
      : await readMembership(db, actor, projectId)
  // A project the caller is not in answers exactly like one that does not exist.
  if (!row.exists || (!row.role && !actor.admin)) throw new NotFoundError('Project')
  const role = (row.role ?? '') as ProjectRole | ''
  const permissions = role ? ROLE_PERMISSIONS[role] : 0
  if (actor.admin) return { projectId, role, permissions }
  if (access.adminOnly) throw new UnauthorizedError('Only administrators can do this')
  if (access.permission && !READ_METHODS.has(req.method)) {
    if ((permissions & Permission[access.permission]) === 0) {
      throw new ForbiddenError('Your role in this project does not allow this')
    }
  }
  return { projectId, role, permissions }
}

async function readMembership(db: Db, actor: Actor, projectId: number): Promise<ProjectMembership> {
  const row = await db.kysely
    .selectFrom('project')
    .leftJoin('project_user', (join) =>
      join
        .onRef('project_user.project_id', '=', 'project.id')
        .on('project_user.user_id', '=', actor.id),
    )
    .select(['project.id', 'project_user.role'])
    .where('project.id', '=', projectId)
    .executeTakeFirst()
  return { projectId, exists: row !== undefined, role: row?.role ?? null }
}
