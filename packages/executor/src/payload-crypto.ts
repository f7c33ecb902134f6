/*
 * Encryption of the jobs a server hands to a runner. The payload carries decrypted secrets,
 * so it leaves the server only encrypted to the runner's public key. Two formats:
 * - the compatible one: the bytes RSA-encrypted with PKCS#1 v1.5 padding in consecutive
 *   chunks of (key bytes − 11), concatenated (what the compatible runner decrypts);
 * - `hybrid`: a random AES-256-GCM key wrapped with RSA-OAEP (SHA-256), then the payload
 *   encrypted and authenticated with it. Smaller, faster, and tampering is detected.
 */
import {
  constants,
  createCipheriv,
  createDecipheriv,
  createPublicKey,
  generateKeyPair,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto'

const IV_BYTES = 12
const TAG_BYTES = 16
const AES_KEY_BYTES = 32
/** Bytes PKCS#1 v1.5 padding takes from each RSA block. */
const PKCS1_OVERHEAD = 11

export interface RunnerKeyPair {
  /** PKCS#1 PEM (`-----BEGIN RSA PRIVATE KEY-----`), what the compatible runner reads. */
  privateKeyPem: string
  /** SPKI PEM (`-----BEGIN PUBLIC KEY-----`), what the server stores. */
  publicKeyPem: string
}

const KEY_OPTIONS = {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
} as const

/** A fresh 2048-bit RSA key pair for a runner. Blocks for a moment; see the async form. */
export function generateRunnerKeyPair(): RunnerKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', KEY_OPTIONS)
  return { privateKeyPem: privateKey, publicKeyPem: publicKey }
}

/** The same, computed off the main thread, for a server that must keep answering. */
export function generateRunnerKeyPairAsync(): Promise<RunnerKeyPair> {
  return new Promise((resolve, reject) => {
    generateKeyPair('rsa', KEY_OPTIONS, (error, publicKey, privateKey) => {
      if (error) reject(error)
      else resolve({ privateKeyPem: privateKey, publicKeyPem: publicKey })
    })
  })
}

function rsaPublicKey(publicKeyPem: string): KeyObject {
  const key = createPublicKey(publicKeyPem)
  if (key.asymmetricKeyType !== 'rsa') throw new Error('The public key is not an RSA key')
  return key
}

function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength
  if (!bits) throw new Error('The size of the RSA key is unknown')
  return Math.ceil(bits / 8)
}

/** The compatible format: PKCS#1 v1.5 chunks of (key bytes − 11), concatenated. */
export function sealPkcs1Chunks(plaintext: Buffer | string, publicKeyPem: string): Buffer {
  const key = rsaPublicKey(publicKeyPem)
  const data = Buffer.isBuffer(plaintext) ? plaintext : Buffer.from(plaintext, 'utf8')
  const chunk = modulusBytes(key) - PKCS1_OVERHEAD
  const parts: Buffer[] = []
  for (let at = 0; at < data.length; at += chunk) {
    parts.push(
      publicEncrypt(
        { key, padding: constants.RSA_PKCS1_PADDING },
        data.subarray(at, Math.min(at + chunk, data.length)),
      ),
    )
  }
  return Buffer.concat(parts)
}

/**
 * The hybrid format: 2-byte big-endian length of the wrapped key, the RSA-OAEP (SHA-256)
 * wrapped AES-256 key, the 12-byte IV, the 16-byte GCM tag, then the ciphertext.
 */
export function sealHybrid(plaintext: Buffer | string, publicKeyPem: string): Buffer {
  const key = rsaPublicKey(publicKeyPem)
  const aesKey = randomBytes(AES_KEY_BYTES)
  const wrapped = publicEncrypt(
    { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  )
  const iv = randomBytes(IV_BYTES)
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv)
  const data = Buffer.isBuffer(plaintext) ? plaintext : Buffer.from(plaintext, 'utf8')
  const body = Buffer.concat([cipher.update(data), cipher.final()])
  const length = Buffer.alloc(2)
  length.writeUInt16BE(wrapped.length)
  return Buffer.concat([length, wrapped, iv, cipher.getAuthTag(), body])
}

/** Opens what `sealHybrid` sealed; throws when it was altered or sealed to another key. */
export function openHybrid(sealed: Buffer, privateKeyPem: string): Buffer {
  if (sealed.length < 2) throw new Error('The payload is truncated')
  const wrappedLength = sealed.readUInt16BE(0)
  const ivAt = 2 + wrappedLength
  const tagAt = ivAt + IV_BYTES
  const bodyAt = tagAt + TAG_BYTES
  if (sealed.length < bodyAt) throw new Error('The payload is truncated')
  const aesKey = privateDecrypt(
    { key: privateKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    sealed.subarray(2, ivAt),
  )
  if (aesKey.length !== AES_KEY_BYTES) throw new Error('The payload key has the wrong size')
  const decipher = createDecipheriv('aes-256-gcm', aesKey, sealed.subarray(ivAt, tagAt))
  decipher.setAuthTag(sealed.subarray(tagAt, bodyAt))
  return Buffer.concat([decipher.update(sealed.subarray(bodyAt)), decipher.final()])
}
