import type { AuthMethods, TotpEnrolment, UserTotp } from '@flagman/contract'
import type { Db } from '@flagman/db'
import { insertReturningId, nowIso } from '@flagman/db'
import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'
import type { Config } from '../../config.js'
import type { SecretBox } from '../../lib/secret-box.js'
import { hashPassword, verifyPassword } from '../../lib/secrets.js'
import type { Actor } from '../../platform/actor.js'
import { AppError, BadRequestError, NotFoundError } from '../../platform/errors.js'
import { insertEvent } from '../events/index.js'
import { findUser } from '../users/users.repository.js'

/** Name authenticator apps show next to the account. */
const ISSUER = 'Flagman'
const PERIOD_SECONDS = 30
const DIGITS = 6
/** Codes of the step before and after the current one are accepted too (clock drift). */
const WINDOW = 1
/** Bytes of the recovery code: 16 characters of base32. */
const RECOVERY_BYTES = 10
const QR_SIZE = 256

const NOT_ENABLED = 'TOTP not enabled'
const ALREADY_ENABLED = 'TOTP already enabled'

/** The sign-in methods besides the password, as the login metadata and the system info show. */
export function authMethods(config: Config): AuthMethods {
  return config.totpEnabled ? { totp: { allow_recovery: config.totpAllowRecovery } } : {}
}

function totpRow(db: Db, userId: number) {
  return db.kysely
    .selectFrom('user_totp')
    .select(['id', 'created', 'user_id', 'secret', 'recovery_hash', 'last_step'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
}

/** The user's second factor as users are shown, when the server has two-factor sign-in on. */
export async function userTotp(
  db: Db,
  config: Config,
  userId: number,
): Promise<UserTotp | undefined> {
  if (!config.totpEnabled) return undefined
  const row = await totpRow(db, userId)
  return row ? { id: row.id, created: row.created, user_id: row.user_id } : undefined
}

/** The second factors of all users, by user id (empty when two-factor sign-in is off). */
export async function userTotps(db: Db, config: Config): Promise<Map<number, UserTotp>> {
  if (!config.totpEnabled) return new Map()
  const rows = await db.kysely
    .selectFrom('user_totp')
    .select(['id', 'created', 'user_id'])
    .execute()
  return new Map(rows.map((r) => [r.user_id, { id: r.id, created: r.created, user_id: r.user_id }]))
}

/** Whether signing in as this user needs a second factor. */
export async function needsSecondFactor(db: Db, config: Config, userId: number): Promise<boolean> {
  if (!config.totpEnabled) return false
  return (await totpRow(db, userId)) !== undefined
}

function totpFor(secret: Secret, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    secret,
    algorithm: 'SHA1',
    digits: DIGITS,
    period: PERIOD_SECONDS,
  })
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '23505' || code === 'ER_DUP_ENTRY'
}

/**
 * Turns on two-factor sign-in for a user. The secret is stored encrypted and the recovery
 * code only as a hash: this answer is the only time either is shown.
 */
export async function enableTotp(
  db: Db,
  secrets: SecretBox,
  config: Config,
  actor: Actor,
  userId: number,
): Promise<TotpEnrolment> {
  if (!config.totpEnabled) throw new BadRequestError(NOT_ENABLED)
  const user = await findUser(db.kysely, userId)
  if (!user) throw new NotFoundError('User')
  if (await totpRow(db, userId)) throw new BadRequestError(ALREADY_ENABLED)
  const secret = new Secret({ size: 20 })
  const url = totpFor(secret, user.email).toString()
  const recoveryCode = config.totpAllowRecovery
    ? new Secret({ size: RECOVERY_BYTES }).base32
    : undefined
  const recoveryHash = recoveryCode ? await hashPassword(recoveryCode) : null
  const created = nowIso()
  try {
    const id = await db.kysely.transaction().execute(async (trx) => {
      const totpId = await insertReturningId({ kysely: trx, dialect: db.dialect }, 'user_totp', {
        user_id: userId,
        created,
        secret: secrets.encrypt(secret.base32),
        recovery_hash: recoveryHash,
      })
      await insertEvent(trx, {
        projectId: null,
        userId: actor.id,
        objectType: 'user',
        objectId: userId,
        description: `Two-factor sign-in enabled for user ${user.username}`,
      })
      return totpId
    })
    return {
      id,
      created,
      user_id: userId,
      url,
      ...(recoveryCode ? { recovery_code: recoveryCode } : {}),
    }
  } catch (error) {
    // Another request enabled it at the same moment.
    if (isUniqueViolation(error)) throw new BadRequestError(ALREADY_ENABLED)
    throw error
  }
}

/**
 * The `otpauth://` address as a PNG QR code. It holds the secret, so it is only given while
 * the second factor is being set up: once a code of it has been accepted it is gone.
 */
export async function totpQrCode(
  db: Db,
  secrets: SecretBox,
  config: Config,
  userId: number,
): Promise<Buffer> {
  const row = config.totpEnabled ? await totpRow(db, userId) : undefined
  if (!row) throw new AppError(404, NOT_ENABLED)
  if (row.last_step !== null) {
    throw new AppError(404, 'The QR code is only shown until the first code is used')
  }
  const user = await findUser(db.kysely, userId)
  if (!user) throw new NotFoundError('User')
  const url = totpFor(Secret.fromBase32(secrets.decrypt(row.secret)), user.email).toString()
  return QRCode.toBuffer(url, { type: 'png', width: QR_SIZE, margin: 1 })
}

/** Turns two-factor sign-in off, by the user themselves or by an administrator. */
export async function disableTotp(db: Db, actor: Actor, userId: number): Promise<void> {
  await db.kysely.transaction().execute(async (trx) => {
    const user = await findUser(trx, userId)
    if (!user) throw new NotFoundError('User')
    const deleted = await trx
      .deleteFrom('user_totp')
      .where('user_id', '=', userId)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 0) throw new BadRequestError(NOT_ENABLED)
    await insertEvent(trx, {
      projectId: null,
      userId: actor.id,
      objectType: 'user',
      objectId: userId,
      description:
        actor.id === userId
          ? `Two-factor sign-in disabled for user ${user.username}`
          : `Two-factor sign-in of user ${user.username} removed by an administrator`,
    })
  })
}

/**
 * Checks a code of the user's authenticator app. A code is accepted once: its time step
 * is recorded, and codes of that step or earlier are refused from then on.
 */
export async function checkPasscode(
  db: Db,
  secrets: SecretBox,
  userId: number,
  passcode: string,
): Promise<boolean> {
  const row = await totpRow(db, userId)
  if (!row) return false
  const secret = Secret.fromBase32(secrets.decrypt(row.secret))
  const now = Date.now()
  const delta = totpFor(secret, '').validate({ token: passcode, timestamp: now, window: WINDOW })
  if (delta === null) return false
  const step = TOTP.counter({ period: PERIOD_SECONDS, timestamp: now }) + delta
  // Conditional, so two requests with the same code can not both pass.
  const updated = await db.kysely
    .updateTable('user_totp')
    .set({ last_step: step })
    .where('id', '=', row.id)
    .where((eb) => eb.or([eb('last_step', 'is', null), eb('last_step', '<', step)]))
    .executeTakeFirst()
  return Number(updated.numUpdatedRows) === 1
}

/** Recovery codes are shown in capitals; spaces and dashes typed along are ignored. */
function normaliseRecoveryCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase()
}

/**
 * Signs in with the recovery code instead of a code of the app: on success the user's
 * second factor is removed (they set up a new one) and the session is verified.
 */
export async function recoverWithCode(
  db: Db,
  actor: Actor,
  sessionId: number,
  code: string,
): Promise<boolean> {
  const row = await totpRow(db, actor.id)
  const ok = await verifyPassword(normaliseRecoveryCode(code), row?.recovery_hash ?? null)
  if (!row || !ok) return false
  return db.kysely.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('user_totp').where('id', '=', row.id).executeTakeFirst()
    // Used by a request racing this one.
    if (Number(deleted.numDeletedRows) === 0) return false
    await trx.updateTable('session').set({ verified: 1 }).where('id', '=', sessionId).execute()
    await insertEvent(trx, {
      projectId: null,
      userId: actor.id,
      objectType: 'user',
      objectId: actor.id,
      description: `User ${actor.username} signed in with the recovery code; two-factor sign-in removed`,
    })
    return true
  })
}
