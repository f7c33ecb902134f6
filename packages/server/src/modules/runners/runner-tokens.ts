import { createHash, createPublicKey, randomBytes, timingSafeEqual } from 'node:crypto'

/** A runner token: base64 of 32 random bytes, as the compatible server makes them. */
export function newRunnerToken(): string {
  return randomBytes(32).toString('base64')
}

/** What is stored of a token: its SHA-256 (hex), so a copy of the database can not act. */
export function hashRunnerToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/**
 * Compares a given secret with the expected one in time that does not depend on where they
 * differ (both are hashed first, so lengths do not leak either).
 */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest()
  const b = createHash('sha256').update(expected, 'utf8').digest()
  return timingSafeEqual(a, b)
}

/** Smallest RSA key a runner may register: smaller ones are breakable. */
export const MIN_RSA_BITS = 2048

/**
 * The public key in the form stored (SPKI PEM), or null when the text is not an RSA public
 * key of at least MIN_RSA_BITS bits.
 */
export function normalizePublicKey(text: string): string | null {
  try {
    const key = createPublicKey(text)
    if (key.asymmetricKeyType !== 'rsa') return null
    if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS) return null
    return String(key.export({ type: 'spki', format: 'pem' }))
  } catch {
    return null
  }
}
