import { CreateUserBody, PROJECT_ROLES, type ProjectRole } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { verifyPassword } from '../../lib/secrets.js'
import { announceAccessChange, type AccessChange } from '../../platform/access-changes.js'
import { AppError, BadRequestError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { createUser, findUserByLogin, type UserRow } from '../users/index.js'
import { countAdmins, findClash, findUser, lockUsers } from '../users/users.repository.js'
import {
  ldapAuthenticate,
  LdapUnavailableError,
  normaliseDn,
  type LdapAccount,
  type LdapLog,
} from './ldap.client.js'
import type { LdapConfig, LdapGroupRule } from './ldap.config.js'

export interface CredentialCheck {
  /** The user signing in; undefined when the credentials are refused. */
  user: UserRow | undefined
  /**
   * Set when the directory could not be used and the local password did not sign in
   * either: the caller answers with it instead of "incorrect login or password".
   */
  unavailable?: LdapUnavailableError
}

interface PasswordSettings {
  ldap: LdapConfig | null
  passwordLoginDisabled: boolean
}

/**
 * Checks a login and password. With LDAP on the directory is asked first: an entry found
 * there signs in (or is refused) as that directory account, and only a login the directory
 * does not know falls back to the local password. External users never sign in by a
 * local password. While the directory can not be reached, local accounts still sign in.
 */
export async function checkCredentials(
  db: Db,
  settings: PasswordSettings,
  login: string,
  password: string,
  log: LdapLog,
): Promise<CredentialCheck> {
  let unavailable: LdapUnavailableError | undefined
  if (settings.ldap) {
    try {
      const outcome = await ldapAuthenticate(settings.ldap, login, password, log)
      if (outcome.kind === 'account') {
        return { user: await signInDirectoryAccount(db, settings.ldap, outcome.account, log) }
      }
      if (outcome.kind === 'refused') {
        log.info({ reason: outcome.reason }, 'LDAP sign-in refused')
        return { user: undefined }
      }
    } catch (error) {
      if (!(error instanceof LdapUnavailableError)) throw error
      unavailable = error
    }
  }
  if (settings.passwordLoginDisabled) return { user: undefined, unavailable }
  const user = await findUserByLogin(db, login)
  const ok = await verifyPassword(password, user && !user.external ? user.password : null)
  return ok ? { user } : { user: undefined, unavailable }
}

/** Rank of a role: lower is more. */
function rank(role: ProjectRole): number {
  return PROJECT_ROLES.indexOf(role)
}

/** Validates the directory's values as a Flagman user's, with a message the user can pass on. */
function profileOf(account: LdapAccount): { username: string; name: string; email: string } {
  const parsed = CreateUserBody.safeParse({
    username: account.username,
    name: account.name,
    email: account.email,
    external: true,
  })
  if (!parsed.success) {
    const issue = parsed.error.issues[0]?.message ?? 'invalid'
    throw new BadRequestError(
      `Your directory entry can not be used for Flagman (${issue}); ask your administrator.`,
    )
  }
  return { username: parsed.data.username, name: parsed.data.name, email: parsed.data.email }
}

/**
 * The Flagman user of a directory account: matched by username or email, created as an
 * external user when there is none, its name and email kept as the directory has them.
 * A local (non-external) user with that username or email is refused: the directory can
 * not take over an account that signs in by its own password.
 */
async function externalUser(db: Db, account: LdapAccount, log: LdapLog): Promise<UserRow | null> {
  const profile = profileOf(account)
  const find = () =>
    db.kysely
      .selectFrom('user')
      .selectAll()
      .where((eb) =>
        eb.or([
          eb(eb.fn('lower', ['username']), '=', profile.username.toLowerCase()),
          eb(eb.fn('lower', ['email']), '=', profile.email.toLowerCase()),
        ]),
      )
      .orderBy('id')
      .execute()
  let rows = await find()
  if (rows.length === 0) {
    try {
      await createUser(db, null, { ...profile, external: true })
    } catch (error) {
      // Created by a sign-in racing this one: use theirs.
      if (!(error instanceof AppError) || error.status !== 400) throw error
    }
    rows = await find()
  }
  if (rows.some((r) => !r.external)) {
    log.info({}, 'LDAP account matches a local user with a password; sign-in refused')
    return null
  }
  const row =
    rows.find((r) => r.username.toLowerCase() === profile.username.toLowerCase()) ?? rows[0]
  if (!row) return null
  if (row.name !== profile.name || row.email !== profile.email) {
    await db.kysely.transaction().execute(async (trx) => {
      await lockUsers(trx, db.dialect)
      // Another user may have the directory's email; the user then keeps theirs.
      const clash = await findClash(trx, row.username, profile.email, row.id)
      await trx
        .updateTable('user')
        .set({ name: profile.name, ...(clash ? {} : { email: profile.email }) })
        .where('id', '=', row.id)
        .execute()
      await insertEvent(trx, {
        projectId: null,
        userId: row.id,
        objectType: 'user',
        objectId: row.id,
        description: `User ${row.username} updated from the LDAP directory`,
      })
    })
  }
  return (await findUser(db.kysely, row.id)) ?? null
}

/** What the group rules give an account: the highest role per project, and admin or not. */
export function grantsOf(
  rules: LdapGroupRule[],
  groups: Set<string>,
): { roles: Map<number, ProjectRole>; admin: boolean } {
  const roles = new Map<number, ProjectRole>()
  let admin = false
  for (const rule of rules) {
    if (!groups.has(normaliseDn(rule.group))) continue
    if ('admin' in rule) {
      admin = true
      continue
    }
    const current = roles.get(rule.projectId)
    if (!current || rank(rule.role) < rank(current)) roles.set(rule.projectId, rule.role)
  }
  return { roles, admin }
}

/**
 * Applies the group rules to a user at sign-in. Memberships the rules gave are marked: they
 * are added, their role changed and removed as the groups change. Memberships added by hand
 * are never touched. The admin flag likewise: given by an `admin` rule, taken back when the
 * user leaves that group (unless they are the last administrator); given by hand, kept.
 */
export async function syncGroupRoles(
  db: Db,
  rules: LdapGroupRule[],
  userId: number,
  groups: Set<string>,
  log: LdapLog,
): Promise<void> {
  const wanted = grantsOf(rules, groups)
  const changes: AccessChange[] = []
  await db.kysely.transaction().execute(async (trx) => {
    await lockUsers(trx, db.dialect)
    const user = await findUser(trx, userId)
    if (!user) return
    const event = (projectId: number | null, description: string) =>
      insertEvent(trx, {
        projectId,
        userId,
        objectType: 'user',
        objectId: userId,
        description: `${description} (LDAP group mapping)`,
      })
    const memberships = await trx
      .selectFrom('project_user')
      .select(['id', 'project_id', 'role', 'ldap_managed'])
      .where('user_id', '=', userId)
      .execute()
    const projectIds = [...wanted.roles.keys()]
    const existing = new Set(
      projectIds.length === 0
        ? []
        : (
            await trx.selectFrom('project').select('id').where('id', 'in', projectIds).execute()
          ).map((p) => p.id),
    )
    for (const [projectId, role] of wanted.roles) {
      if (!existing.has(projectId)) {
        log.warn({ projectId }, 'project of FLAGMAN_LDAP_GROUP_ROLES not found')
        continue
      }
      const membership = memberships.find((m) => m.project_id === projectId)
      if (!membership) {
        await trx
          .insertInto('project_user')
          .values({ project_id: projectId, user_id: userId, role, ldap_managed: 1 })
          .execute()
        await event(projectId, `User ${user.username} added to team as ${role}`)
      } else if (membership.ldap_managed && membership.role !== role) {
        await trx
          .updateTable('project_user')
          .set({ role })
          .where('id', '=', membership.id)
          .execute()
        await event(projectId, `Role of user ${user.username} changed to ${role}`)
        if (rank(role) > rank(membership.role as ProjectRole)) {
          changes.push({ kind: 'rights-reduced', userId })
        }
      }
    }
    for (const membership of memberships) {
      if (!membership.ldap_managed || wanted.roles.has(membership.project_id)) continue
      await trx.deleteFrom('project_user').where('id', '=', membership.id).execute()
      await event(membership.project_id, `User ${user.username} removed from team`)
      changes.push({ kind: 'membership-ended', userId, projectId: membership.project_id })
    }
    if (wanted.admin && !user.admin) {
      await trx
        .updateTable('user')
        .set({ admin: 1, ldap_admin: 1 })
        .where('id', '=', userId)
        .execute()
      await event(null, `User ${user.username} made administrator`)
    } else if (!wanted.admin && user.ldap_admin) {
      const keep = Boolean(user.admin) && (await countAdmins(trx)) <= 1
      if (keep) {
        log.warn({}, 'LDAP group mapping would remove the last administrator; kept')
      } else {
        await trx
          .updateTable('user')
          .set({ admin: 0, ldap_admin: 0 })
          .where('id', '=', userId)
          .execute()
        if (user.admin) {
          await event(null, `Administrator rights of user ${user.username} removed`)
          changes.push({ kind: 'rights-reduced', userId })
        }
      }
    }
  })
  for (const change of changes) announceAccessChange(db, change)
}

/** The Flagman user of a directory account that just proved its password, groups applied. */
async function signInDirectoryAccount(
  db: Db,
  config: LdapConfig,
  account: LdapAccount,
  log: LdapLog,
): Promise<UserRow | undefined> {
  const user = await externalUser(db, account, log)
  if (!user) return undefined
  await syncGroupRoles(db, config.groupRoles, user.id, account.groups, log)
  return (await findUser(db.kysely, user.id)) ?? undefined
}
