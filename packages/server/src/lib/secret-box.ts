import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const ALGORITHM = 'aes-256-gcm'
const IV_BYTES = 12
const TAG_BYTES = 16
const VERSION_PREFIX = 'v1:'

/** Name of the file in the data folder that holds a generated encryption key. */
export const ENCRYPTION_KEY_FILE = 'access-key-encryption'

/**
 * Encrypts secrets at rest with AES-256-GCM (authenticated: a tampered value fails to
 * decrypt instead of yielding garbage). Stored form: `v1:` + base64(iv | tag | ciphertext).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromBase64(value: string): SecretBox {
    const key = Buffer.from(value.trim(), 'base64')
    if (key.length !== 32) {
      throw new Error('FLAGMAN_ACCESS_KEY_ENCRYPTION must be 32 bytes encoded as base64')
    }
    return new SecretBox(key)
  }

  /**
   * Uses the configured key, or the one stored in the data folder, creating it there (mode
   * 0600) on first start. `onCreate` is told the file's path so it can be logged.
   */
  static load(configured: string, dataDir: string, onCreate: (file: string) => void): SecretBox {
    if (configured) return SecretBox.fromBase64(configured)
    const file = join(dataDir, ENCRYPTION_KEY_FILE)
    if (existsSync(file)) return SecretBox.fromBase64(readFileSync(file, 'utf8'))
    mkdirSync(dataDir, { recursive: true })
    const key = randomBytes(32).toString('base64')
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'wx' })
    onCreate(file)
    return SecretBox.fromBase64(key)
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv(ALGORITHM, this.key, iv)
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
    return VERSION_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
  }

  decrypt(stored: string): string {
    if (!stored.startsWith(VERSION_PREFIX)) throw new Error('Unknown secret format')
    const data = Buffer.from(stored.slice(VERSION_PREFIX.length), 'base64')
    const iv = data.subarray(0, IV_BYTES)
    const tag = data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES)
    const decipher = createDecipheriv(ALGORITHM, this.key, iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([
      decipher.update(data.subarray(IV_BYTES + TAG_BYTES)),
      decipher.final(),
    ]).toString('utf8')
  }
}
