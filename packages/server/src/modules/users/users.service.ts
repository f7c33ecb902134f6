import type { CreateUserBody, UpdateUserBody, User, UserSummary } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { flag, insertReturningId, nowIso } from '@flagman/db'
import type { z } from 'zod'
import type {
  CreateUserBody as CreateSchema,
  UpdateUserBody as UpdateSchema,
} from '@flagman/contract'
import { hashPassword, verifyPassword } from '../../lib/secrets.js'
import { announceAccessChange } from '../../platform/access-changes.js'
import type { Actor } from '../../platform/actor.js'
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { checkPasswordLength } from './password-rules.js'
import {
  countAdmins,
  expireCredentials,
  findClash,
  findUser,
  listUserRows,
  lockUsers,
  toUser,
} from './users.repository.js'

type CreateInput = z.output<typeof CreateSchema>
type UpdateInput = z.output<typeof UpdateSchema>
export type { CreateUserBody, UpdateUserBody }

/** Why an external (single sign-on or LDAP) user's password can not be set. */
export const EXTERNAL_NO_PASSWORD =
  'External users sign in through their identity provider and have no password to change'
export const CURRENT_PASSWORD_REQUIRED = 'current_password is required to change your own password'
export const CURRENT_PASSWORD_WRONG = 'The current password is incorrect'

/**
 * Whether a password change must prove the current password: users changing their own do,
 * whether signed in by cookie or by token, so a forged request or a stolen token can not
 * take the account over. Administrators resetting another user's password, and the
 * command-line tool (`actor` null), do not.
 */
export function needsCurrentPassword(actor: Actor | null, id: number): boolean {
  return actor !== null && actor.id === id
}

/**
 * Checks the current password a user gave to change their own: false when it is wrong.
 * Refuses external users, who have none, and a missing one.
 */
export async function checkCurrentPassword(
  db: Db,
  id: number,
  current: string | undefined,
): Promise<boolean> {
  const row = await findUser(db.kysely, id)
  if (!row) throw new NotFoundError('User')
  if (row.external) throw new BadRequestError(EXTERNAL_NO_PASSWORD)
  if (!current) throw new BadRequestError(CURRENT_PASSWORD_REQUIRED)
  return verifyPassword(current, row.password)
}

function clashError(field: 'username' | 'email'): BadRequestError {
  return new BadRequestError(
    field === 'username'
      ? 'A user with this username already exists'
      : 'A user with this email already exists',
  )
}

export async function listUsers(db: Db, actor: Actor): Promise<Array<User | UserSummary>> {
  const rows = await listUserRows(db)
  if (actor.admin) return rows.map(toUser)
  return rows.map((r) => ({ id: r.id, username: r.username, name: r.name }))
}

export async function getUser(db: Db, id: number): Promise<User> {
  const row = await findUser(db.kysely, id)
  if (!row) throw new NotFoundError('User')
  return toUser(row)
}

/** What every path that sets a password must respect (FLAGMAN_PASSWORD_MIN_LENGTH). */
export interface PasswordRules {
  minLength: number
}

/**
 * Creates a user. `actor` is null when the command-line tool creates one. `rules` may be
 * left out only for external users, who have no password.
 */
export async function createUser(
  db: Db,
  actor: Actor | null,
  input: CreateInput,
  rules?: PasswordRules,
): Promise<User> {
  const external = input.external ?? false
  if (!external && !input.password) throw new BadRequestError('password is required')
  // Checked before the slow hash as well, so a taken name is refused at once; the check in
  // the transaction below is the one that counts.
  const taken = await findClash(db.kysely, input.username, input.email, null)
  if (taken) throw clashError(taken)
  if (!external && input.password) {
    if (!rules) throw new Error('Password rules are needed to create a local user')
    checkPasswordLength(input.password, rules.minLength)
  }
  const password = input.password && !external ? await hashPassword(input.password) : null
  return db.kysely.transaction().execute(async (trx) => {
    await lockUsers(trx, db.dialect)
    const clash = await findClash(trx, input.username, input.email, null)
    if (clash) throw clashError(clash)
    const id = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'user', {
      created: nowIso(),
      username: input.username,
      name: input.name,
      email: input.email,
      password,
      admin: flag(input.admin),
      external: flag(external),
      alert: flag(input.alert),
      pro: flag(input.pro),
    })
    await insertEvent(trx, {
      projectId: null,
      userId: actor?.id ?? null,
      objectType: 'user',
      objectId: id,
      description: `User ${input.username} created`,
    })
    const row = await findUser(trx, id)
    return toUser(row!)
  })
}

/**
 * Checks a new password before its slow hash: external users are refused first (they have
 * no password whatever its length), then a password that is too short. The transaction
 * that stores the hash checks the user again.
 */
async function checkNewPassword(
  db: Db,
  id: number,
  password: string,
  rules: PasswordRules,
): Promise<void> {
  const row = await findUser(db.kysely, id)
  if (!row) throw new NotFoundError('User')
  if (row.external) throw new BadRequestError(EXTERNAL_NO_PASSWORD)
  checkPasswordLength(password, rules.minLength)
}

/** Edits a user. `actor` is null when the command-line tool does it (as an administrator). */
export async function updateUser(
  db: Db,
  actor: Actor | null,
  id: number,
  input: UpdateInput,
  rules: PasswordRules,
): Promise<void> {
  if (input.password) await checkNewPassword(db, id, input.password, rules)
  const newPassword = input.password ? await hashPassword(input.password) : null
  const actorIsAdmin = actor?.admin ?? true
  let demoted = false
  await db.kysely.transaction().execute(async (trx) => {
    await lockUsers(trx, db.dialect)
    const current = await findUser(trx, id)
    if (!current) throw new NotFoundError('User')
    const admin = input.admin ?? Boolean(current.admin)
    const pro = input.pro ?? Boolean(current.pro)
    if (admin !== Boolean(current.admin)) {
      if (actor?.id === id) throw new UnauthorizedError('You can not change your own admin flag')
      if (!actorIsAdmin) {
        throw new UnauthorizedError('Only administrators can change the admin flag')
      }
      if (!admin && (await countAdmins(trx)) <= 1) {
        throw new BadRequestError('The last administrator can not be demoted')
      }
      demoted = !admin
    }
    if (pro && !current.pro && !actorIsAdmin) {
      throw new UnauthorizedError('Only administrators can give the pro flag')
    }
    if (current.external) {
      if (input.username !== current.username) {
        throw new BadRequestError('The username of an external user can not be changed')
      }
      if (input.password) throw new BadRequestError(EXTERNAL_NO_PASSWORD)
    }
    const clash = await findClash(trx, input.username, input.email, id)
    if (clash) throw clashError(clash)
    await trx
      .updateTable('user')
      .set({
        username: input.username,
        name: input.name,
        email: current.external ? current.email : input.email,
        alert: flag(input.alert ?? Boolean(current.alert)),
        admin: flag(admin),
        // An administrator's own choice of the flag is no longer the LDAP group mapping's to
        // take back.
        ...(admin !== Boolean(current.admin) ? { ldap_admin: 0 } : {}),
        pro: flag(pro),
        ...(newPassword ? { password: newPassword } : {}),
      })
      .where('id', '=', id)
      .execute()
    if (newPassword) await expireCredentials(trx, id, keptSession(actor, id))
    await insertEvent(trx, {
      projectId: null,
      userId: actor?.id ?? null,
      objectType: 'user',
      objectId: id,
      description: `User ${input.username} updated`,
    })
  })
  if (newPassword) {
    announceAccessChange(db, {
      kind: 'credentials-ended',
      userId: id,
      keepSessionId: keptSession(actor, id),
    })
  }
  if (demoted) announceAccessChange(db, { kind: 'rights-reduced', userId: id })
}

/**
 * The session that survives a password change: the one the user changed it in. API tokens
 * never survive one, not even the token the change was made with.
 */
function keptSession(actor: Actor | null, userId: number): number | null {
  return actor?.id === userId ? actor.sessionId : null
}

/** Sets a password. `actor` is null when the command-line tool does it. */
export async function setPassword(
  db: Db,
  actor: Actor | null,
  id: number,
  password: string,
  rules: PasswordRules,
): Promise<void> {
  await checkNewPassword(db, id, password, rules)
  const hash = await hashPassword(password)
  await db.kysely.transaction().execute(async (trx) => {
    const current = await findUser(trx, id)
    if (!current) throw new NotFoundError('User')
    if (current.external) throw new BadRequestError(EXTERNAL_NO_PASSWORD)
    await trx.updateTable('user').set({ password: hash }).where('id', '=', id).execute()
    // A new password signs the user out everywhere else and ends their API tokens.
    await expireCredentials(trx, id, keptSession(actor, id))
    await insertEvent(trx, {
      projectId: null,
      userId: actor?.id ?? null,
      objectType: 'user',
      objectId: id,
      description: `Password of user ${current.username} changed`,
    })
  })
  announceAccessChange(db, {
    kind: 'credentials-ended',
    userId: id,
    keepSessionId: keptSession(actor, id),
  })
}

/** Deletes a user with their memberships, sessions and tokens. */
export async function deleteUser(db: Db, actor: Actor | null, id: number): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    await lockUsers(trx, db.dialect)
    const current = await findUser(trx, id)
    if (!current) throw new NotFoundError('User')
    if (current.admin && (await countAdmins(trx)) <= 1) {
      throw new BadRequestError('The last administrator can not be deleted')
    }
    await trx.deleteFrom('project_user').where('user_id', '=', id).execute()
    await trx.deleteFrom('session').where('user_id', '=', id).execute()
    await trx.deleteFrom('api_token').where('user_id', '=', id).execute()
    await trx.deleteFrom('user_totp').where('user_id', '=', id).execute()
    await trx.deleteFrom('user').where('id', '=', id).execute()
    await insertEvent(trx, {
      projectId: null,
      userId: actor?.id ?? null,
      objectType: 'user',
      objectId: id,
      description: `User ${current.username} deleted`,
    })
  })
  announceAccessChange(db, { kind: 'credentials-ended', userId: id, keepSessionId: null })
}
