import { createHash, randomBytes } from 'node:crypto'
import bcrypt from 'bcryptjs'

const BCRYPT_ROUNDS = 11

/** SHA-256 hex digest; used to store session and API tokens without keeping the token. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

/** 32 random bytes as URL-safe base64, lower-cased (the API token format). */
export function newApiToken(): string {
  return randomBytes(32).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').toLowerCase()
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

export function randomPassword(): string {
  return randomBytes(18).toString('base64url')
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_ROUNDS)
}

/**
 * A hash of a random value, compared against when the user does not exist so timing is alike.
 * Made on first use: every command-line call loads this module, and hashing takes a while.
 */
let dummyHash: Promise<string> | undefined

export async function verifyPassword(password: string, hash: string | null): Promise<boolean> {
  if (!hash) {
    dummyHash ??= bcrypt.hash(randomBytes(16).toString('hex'), BCRYPT_ROUNDS)
    await bcrypt.compare(password, await dummyHash)
    return false
  }
  return bcrypt.compare(password, hash)
}
