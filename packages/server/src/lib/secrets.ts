import { createHash, randomBytes } from 'node:crypto'
import bcrypt from 'bcryptjs'

const BCRYPT_ROUNDS = 11

/** SHA-256 hex digest; used to store tokens without keeping them, and to fingerprint data. */
export function sha256(value: string | Buffer): string {
  return createHash('sha256').update(value).digest('hex')
}

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'

/**
 * Random lower-case letters and digits (about 5.17 bits each), as used for alias strings
 * that are credentials: 16 characters carry about 82 bits, 32 about 165.
 */
export function randomLowerAlnum(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 252 = 7 × 36: rejecting larger bytes keeps every character equally likely.
      if (byte < 252) out += LOWER_ALNUM[byte % 36]
      if (out.length === length) break
    }
  }
  return out
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
