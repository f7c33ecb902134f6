import type { AddTeamMemberBody, ListTeamQuery, ProjectRole, TeamMember } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { z } from 'zod'
import { announceAccessChange } from '../../platform/access-changes.js'
import type { Actor, ProjectAccess } from '../../platform/actor.js'
import { BadRequestError, ConflictError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { assertSameIds } from '../project-scope.js'
import { toUser } from '../users/index.js'

type ListQuery = z.output<typeof ListTeamQuery>
type AddInput = z.output<typeof AddTeamMemberBody>

const SORT_COLUMNS = {
  name: 'user.name',
  username: 'user.username',
  email: 'user.email',
  role: 'project_user.role',
} as const

export async function listTeam(db: Db, projectId: number, query: ListQuery): Promise<TeamMember[]> {
  const column = SORT_COLUMNS[query.sort ?? 'name']
  const direction = query.order === 'desc' ? 'desc' : 'asc'
  const rows = await db.kysely
    .selectFrom('project_user')
    .innerJoin('user', 'user.id', 'project_user.user_id')
    .select(['user.id', 'user.username', 'user.name', 'project_user.role'])
    .where('project_user.project_id', '=', projectId)
    .orderBy(column, direction)
    .orderBy('user.id')
    .execute()
  return rows.map((r) => ({ ...r, role: r.role as ProjectRole }))
}

export async function getMember(db: Db, projectId: number, userId: number) {
  const row = await db.kysely
    .selectFrom('user')
    .innerJoin('project_user', 'project_user.user_id', 'user.id')
    .selectAll('user')
    .where('project_user.project_id', '=', projectId)
    .where('user.id', '=', userId)
    .executeTakeFirst()
  if (!row) throw new NotFoundError('Team member')
  return toUser(row)
}

export async function addMember(
  db: Db,
  actor: Actor,
  projectId: number,
  input: AddInput,
): Promise<void> {
  assertSameIds({ project_id: input.project_id ?? undefined }, { projectId }, 'Project')
  await db.kysely.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom('user')
      .select(['id', 'username'])
      .where('id', '=', input.user_id)
      .executeTakeFirst()
    if (!user) throw new ConflictError('There is no user with this id')
    const existing = await trx
      .selectFrom('project_user')
      .select('id')
      .where('project_id', '=', projectId)
      .where('user_id', '=', input.user_id)
      .executeTakeFirst()
    if (existing) throw new ConflictError('This user is already a member of the project')
    await trx
      .insertInto('project_user')
      .values({ project_id: projectId, user_id: input.user_id, role: input.role })
      .execute()
    await insertEvent(trx, {
      projectId,
      userId: actor.id,
      objectType: 'user',
      objectId: input.user_id,
      description: `User ID ${input.user_id} added to team`,
    })
  })
}

/** A non-admin owner can not change their own role or remove themselves. */
function guardOwnMembership(
  actor: Actor,
  access: ProjectAccess,
  userId: number,
  what: string,
): void {
  if (!actor.admin && actor.id === userId && access.role === 'owner') {
    throw new BadRequestError(`The owner can not ${what}`)
  }
}

export async function changeRole(
  db: Db,
  actor: Actor,
  access: ProjectAccess,
  userId: number,
  role: ProjectRole,
  bodyProjectId: unknown,
): Promise<void> {
  assertSameIds({ project_id: bodyProjectId ?? undefined }, access, 'Project')
  guardOwnMembership(actor, access, userId, 'change their own role')
  await db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('project_user')
      .set({ role })
      .where('project_id', '=', access.projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) === 0) {
      // MySQL counts only changed rows; tell "same role" from "not a member".
      const member = await trx
        .selectFrom('project_user')
        .select('id')
        .where('project_id', '=', access.projectId)
        .where('user_id', '=', userId)
        .executeTakeFirst()
      if (!member) throw new NotFoundError('Team member')
    }
    await insertEvent(trx, {
      projectId: access.projectId,
      userId: actor.id,
      objectType: 'user',
      objectId: userId,
      description: `Changed role for User ID ${userId}`,
    })
  })
}

export async function removeMember(
  db: Db,
  actor: Actor,
  access: ProjectAccess,
  userId: number,
): Promise<void> {
  guardOwnMembership(actor, access, userId, 'leave the project')
  await db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('project_user')
      .where('project_id', '=', access.projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (Number(result.numDeletedRows) === 0) throw new NotFoundError('Team member')
    await insertEvent(trx, {
      projectId: access.projectId,
      userId: actor.id,
      objectType: 'user',
      objectId: userId,
      description: `User ID ${userId} removed from team`,
    })
  })
  // The former member's live sockets stop getting this project's messages at once.
  announceAccessChange(db, { kind: 'membership-ended', userId, projectId: access.projectId })
}

/** The caller leaves the project. Admins who are not members have nothing to leave. */
export async function leave(db: Db, actor: Actor, access: ProjectAccess): Promise<void> {
  if (!access.role) return
  // removeMember refuses a non-admin owner; an admin owner may leave like upstream.
  await removeMember(db, actor, access, actor.id)
}
