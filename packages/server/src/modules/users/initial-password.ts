import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { Db } from '@flagman/db'
import { verifyPassword } from '../../lib/secrets.js'
import { findUser } from './users.repository.js'

/** File in the data folder that holds a generated first-admin password. */
export const INITIAL_PASSWORD_FILE = 'initial-admin-password'

export function initialPasswordFile(dataDir: string): string {
  return join(dataDir, INITIAL_PASSWORD_FILE)
}

function readInitialPassword(dataDir: string): string | null {
  const file = initialPasswordFile(dataDir)
  if (!existsSync(file)) return null
  try {
    return readFileSync(file, 'utf8').trim()
  } catch {
    return null
  }
}

/**
 * Whether the generated first-admin password still opens this user's account. Asked before
 * the user's password changes, so the file can go once the change has been made.
 */
export async function holdsInitialPassword(
  db: Db,
  dataDir: string,
  userId: number,
): Promise<boolean> {
  const password = readInitialPassword(dataDir)
  if (!password) return false
  const row = await findUser(db.kysely, userId)
  return row ? verifyPassword(password, row.password) : false
}

/**
 * Removes the generated-password file once it no longer opens any account: a password left
 * on disk after its owner has chosen another is only a risk. Returns the message to log, or
 * null when there was nothing to remove.
 */
export function removeInitialPasswordFile(dataDir: string): string | null {
  const file = initialPasswordFile(dataDir)
  if (!existsSync(file)) return null
  rmSync(file, { force: true })
  return `Removed ${file}: the first administrator has changed the generated password`
}

/**
 * At start: removes the file when its password no longer opens the first administrator's
 * account, e.g. because the password was changed while the server was stopped.
 */
export async function removeStaleInitialPassword(
  db: Db,
  dataDir: string,
  adminLogin: string,
): Promise<string | null> {
  const password = readInitialPassword(dataDir)
  if (password === null) return null
  const row = await db.kysely
    .selectFrom('user')
    .select(['id', 'password'])
    .where('username', '=', adminLogin)
    .executeTakeFirst()
  if (!row || (await verifyPassword(password, row.password))) return null
  return removeInitialPasswordFile(dataDir)
}
