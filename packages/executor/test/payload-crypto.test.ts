import { execFileSync } from 'node:child_process'
import { createPrivateKey, createPublicKey } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  generateRunnerKeyPair,
  generateRunnerKeyPairAsync,
  openHybrid,
  sealHybrid,
  sealPkcs1Chunks,
} from '../src/index.js'

/*
 * Node 20 refuses PKCS#1 v1.5 decryption unless told otherwise (a timing attack on servers
 * that decrypt). A runner only ever decrypts what its own server sent, so the check runs in a
 * child process with that protection reverted, as the runner does.
 */
const DECRYPT_CHUNKS = `
const { privateDecrypt, constants, createPrivateKey } = require('node:crypto')
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))
const key = createPrivateKey(input.key)
const size = key.asymmetricKeyDetails.modulusLength / 8
const data = Buffer.from(input.data, 'base64')
const parts = []
for (let at = 0; at < data.length; at += size) {
  parts.push(privateDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data.subarray(at, at + size)))
}
process.stdout.write('\\n' + Buffer.concat(parts).toString('base64'))
`

function decryptChunks(sealed: Buffer, privateKeyPem: string): Buffer {
  const out = execFileSync(
    process.execPath,
    ['--security-revert=CVE-2023-46809', '-e', DECRYPT_CHUNKS],
    { input: JSON.stringify({ key: privateKeyPem, data: sealed.toString('base64') }) },
  )
  // Node prints its warning about the reverted protection on standard output, first.
  return Buffer.from(out.toString().split('\n').pop() ?? '', 'base64')
}

describe('runner payload encryption', () => {
  const pair = generateRunnerKeyPair()

  it('makes a 2048-bit RSA pair: PKCS#1 private half, SPKI public half', async () => {
    expect(pair.privateKeyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/)
    expect(pair.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----\n/)
    const publicKey = createPublicKey(pair.publicKeyPem)
    expect(publicKey.asymmetricKeyDetails?.modulusLength).toBe(2048)
    // The public half belongs to the private one.
    const derived = createPublicKey(createPrivateKey(pair.privateKeyPem))
    expect(derived.export({ type: 'spki', format: 'pem' })).toBe(pair.publicKeyPem)
    const other = await generateRunnerKeyPairAsync()
    expect(other.privateKeyPem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/)
    expect(other.publicKeyPem).not.toBe(pair.publicKeyPem)
  })

  it('opens what it sealed in the hybrid format, of any size', () => {
    for (const size of [0, 1, 245, 4096, 1_000_000]) {
      const text = Buffer.alloc(size, 'x')
      const sealed = sealHybrid(text, pair.publicKeyPem)
      expect(sealed.readUInt16BE(0)).toBe(256)
      expect(sealed.length).toBe(2 + 256 + 12 + 16 + size)
      expect(openHybrid(sealed, pair.privateKeyPem).equals(text)).toBe(true)
    }
    const json = JSON.stringify({ secret: 'pa$$word', ü: '✓' })
    expect(openHybrid(sealHybrid(json, pair.publicKeyPem), pair.privateKeyPem).toString()).toBe(
      json,
    )
  })

  it('seals differently each time and never shows the plain text', () => {
    const a = sealHybrid('the secret value', pair.publicKeyPem)
    const b = sealHybrid('the secret value', pair.publicKeyPem)
    expect(a.equals(b)).toBe(false)
    expect(a.toString('latin1')).not.toContain('the secret value')
  })

  it('refuses a payload that was altered, truncated or sealed to another key', () => {
    const sealed = sealHybrid('{"jobs":[]}', pair.publicKeyPem)
    for (const at of [1, 10, 2 + 256 + 1, 2 + 256 + 12 + 1, sealed.length - 1]) {
      const altered = Buffer.from(sealed)
      altered[at] = (altered[at] ?? 0) ^ 0x01
      expect(() => openHybrid(altered, pair.privateKeyPem), `byte ${at}`).toThrow()
    }
    expect(() => openHybrid(sealed.subarray(0, 100), pair.privateKeyPem)).toThrow()
    expect(() => openHybrid(Buffer.alloc(0), pair.privateKeyPem)).toThrow()
    const stranger = generateRunnerKeyPair()
    expect(() => openHybrid(sealed, stranger.privateKeyPem)).toThrow()
  })

  it('writes the compatible format: PKCS#1 v1.5 chunks of 245 bytes', () => {
    for (const size of [1, 245, 246, 5000]) {
      const text = Buffer.from('a'.repeat(size))
      const sealed = sealPkcs1Chunks(text, pair.publicKeyPem)
      expect(sealed.length).toBe(Math.ceil(size / 245) * 256)
      expect(decryptChunks(sealed, pair.privateKeyPem).equals(text)).toBe(true)
    }
    expect(sealPkcs1Chunks('', pair.publicKeyPem).length).toBe(0)
  })

  it('refuses a key that is not an RSA public key', () => {
    expect(() => sealHybrid('x', 'not a key')).toThrow()
    const ec = execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString()
    const ecPublic = createPublicKey(createPrivateKey(ec)).export({ type: 'spki', format: 'pem' })
    expect(() => sealPkcs1Chunks('x', String(ecPublic))).toThrow(/not an RSA key/)
  })
})
