import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * Most bcrypt rounds accepted for a passphrase-protected OpenSSH key (ssh-keygen uses 16 and
 * `-a 100` is a common hardening). Deriving the key costs roughly 10 ms a round, and the
 * count is chosen by whoever wrote the file.
 */
export const MAX_BCRYPT_ROUNDS = 128

/** Most PBKDF2 iterations accepted for an encrypted PKCS#8 key (OpenSSL uses 2048). */
export const MAX_PBKDF2_ITERATIONS = 250_000

/** How long opening one key may take before it is given up. */
const CHECK_TIMEOUT_MS = 10_000

const NOT_A_KEY = 'it is not an SSH private key in OpenSSH or PEM format'

const PEM_BEGIN = /[-]+[ ]*BEGIN ([A-Z0-9][A-Za-z0-9]+ )?(PUBLIC|PRIVATE) KEY[ ]*[-]+/
const PEM_END = /[-]+[ ]*END ([A-Z0-9][A-Za-z0-9]+ )?(PUBLIC|PRIVATE) KEY[ ]*[-]+/

interface PemKey {
  /** The banner's algorithm word: OPENSSH, RSA, EC, DSA, ENCRYPTED, or '' for PKCS#8. */
  alg: string
  kind: 'PUBLIC' | 'PRIVATE'
  body: Buffer
}

/** The first PEM key block of the text (first BEGIN line, last END line, headers skipped). */
function pemKey(text: string): PemKey | null {
  const trimmed = text.trim()
  if (!/^[-]+[ ]*BEGIN/.test(trimmed)) return null
  const lines = trimmed.split(/[\r\n]+/g)
  const start = lines.findIndex((line) => PEM_BEGIN.test(line))
  let end = -1
  for (let i = lines.length - 1; i > start; i--) {
    if (PEM_END.test(lines[i] ?? '')) {
      end = i
      break
    }
  }
  if (start < 0 || end < 0) return null
  const banner = PEM_BEGIN.exec(lines[start] ?? '')
  const inner = lines.slice(start + 1, end).filter((line) => !/^[A-Za-z0-9-]+: .+$/.test(line))
  return {
    alg: (banner?.[1] ?? '').trim().toUpperCase(),
    kind: banner?.[2] === 'PUBLIC' ? 'PUBLIC' : 'PRIVATE',
    body: Buffer.from(inner.join(''), 'base64'),
  }
}

/** Bcrypt rounds of an `openssh-key-v1` body, or null when it uses no KDF. */
function opensshRounds(body: Buffer): number | null {
  const magic = 'openssh-key-v1\0'
  if (body.subarray(0, magic.length).toString('latin1') !== magic) return null
  let at = magic.length
  const readString = (): Buffer => {
    const length = body.readUInt32BE(at)
    const value = body.subarray(at + 4, at + 4 + length)
    at += 4 + length
    return value
  }
  readString() // cipher name
  if (readString().toString('latin1') !== 'bcrypt') return null
  const options = readString()
  return options.readUInt32BE(4 + options.readUInt32BE(0))
}

/** PBKDF2 iterations of an encrypted PKCS#8 body (PBES2), read from its DER prefix. */
function pkcs8Iterations(body: Buffer): number {
  let at = 0
  const header = (tag: number): number => {
    if (body[at] !== tag) throw new Error('unexpected DER tag')
    let length = body[at + 1] ?? 0
    at += 2
    if (length & 0x80) {
      const bytes = length & 0x7f
      if (bytes > 4) throw new Error('DER length too long')
      length = 0
      for (let i = 0; i < bytes; i++) length = length * 256 + (body[at + i] ?? 0)
      at += bytes
    }
    return length
  }
  const skip = (tag: number): void => {
    const length = header(tag) // moves `at` past the header, so read it first
    at += length
  }
  const SEQUENCE = 0x30
  const OID = 0x06
  header(SEQUENCE) // EncryptedPrivateKeyInfo
  header(SEQUENCE) // encryptionAlgorithm
  skip(OID) // PBES2
  header(SEQUENCE) // PBES2-params
  header(SEQUENCE) // keyDerivationFunc
  skip(OID) // PBKDF2
  header(SEQUENCE) // PBKDF2-params
  skip(0x04) // salt
  const length = header(0x02)
  if (length > 6) return Number.MAX_SAFE_INTEGER
  let iterations = 0
  for (let i = 0; i < length; i++) iterations = iterations * 256 + (body[at + i] ?? 0)
  return iterations
}

/** Why opening the key would take unreasonably long, or null when it would not. */
function excessiveKdfCost(pem: PemKey): string | null {
  try {
    if (pem.alg === 'OPENSSH') {
      const rounds = opensshRounds(pem.body)
      if (rounds !== null && rounds > MAX_BCRYPT_ROUNDS) {
        return (
          `its passphrase uses ${rounds} KDF rounds; at most ${MAX_BCRYPT_ROUNDS} are accepted ` +
          `(re-encrypt it with ssh-keygen -p -a ${MAX_BCRYPT_ROUNDS / 2})`
        )
      }
    }
    if (pem.alg === 'ENCRYPTED' && pkcs8Iterations(pem.body) > MAX_PBKDF2_ITERATIONS) {
      return `its passphrase uses more than ${MAX_PBKDF2_ITERATIONS} key derivation iterations`
    }
  } catch {
    // A body that can not be walked is left to the parser, which rejects it.
  }
  return null
}

/**
 * Opens the key in a worker thread. The parsers run their key derivation synchronously, and
 * sshpk reports some decryption failures by throwing from a stream event, which would end
 * the whole process; in a worker both stay contained. OpenSSH keys go to sshpk, PEM keys
 * to OpenSSL through node:crypto.
 */
const WORKER_SOURCE = `
;(async () => {
  // Dynamic imports work whether the worker's code is run as a script or as a module.
  const { parentPort, workerData } = await import('node:worker_threads')
  const { createRequire } = await import('node:module')
  const { text, passphrase, openssh, sshpkPath } = workerData
  try {
    if (openssh) {
      const sshpk = createRequire(sshpkPath)(sshpkPath)
      sshpk.parsePrivateKey(text, 'auto', passphrase ? { passphrase } : {})
    } else {
      const { createPrivateKey } = await import('node:crypto')
      createPrivateKey({ key: text, format: 'pem', passphrase: passphrase || undefined })
    }
    parentPort.postMessage({ ok: true, message: '' })
  } catch (error) {
    const message = String((error && error.message) || error)
    parentPort.postMessage({ ok: false, message: ((error && error.code) || '') + ' ' + message })
  }
})()
`

const SSHPK_PATH = createRequire(import.meta.url).resolve('sshpk')

type Outcome = { ok: true } | { ok: false; message: string } | { ok: false; timedOut: true }

function openInWorker(text: string, passphrase: string, openssh: boolean): Promise<Outcome> {
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { text, passphrase, openssh, sshpkPath: SSHPK_PATH },
      resourceLimits: { maxOldGenerationSizeMb: 64 },
      stdout: true,
      stderr: true,
    })
    let settled = false
    const settle = (outcome: Outcome): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
      void worker.terminate()
    }
    const timer = setTimeout(() => settle({ ok: false, timedOut: true }), CHECK_TIMEOUT_MS)
    worker.on('message', (result: { ok: boolean; message: string }) =>
      settle(result.ok ? { ok: true } : { ok: false, message: result.message }),
    )
    // An error thrown late in the worker only ends the worker.
    worker.on('error', (error) => settle({ ok: false, message: error.message }))
    worker.on('exit', () => settle({ ok: false, message: 'the check stopped' }))
  })
}

/**
 * Checks that text is an SSH private key (OpenSSH or PEM) that opens with the passphrase.
 * Returns the reason when it is not.
 */
export async function checkSshPrivateKey(text: string, passphrase: string): Promise<string | null> {
  const pem = pemKey(text)
  if (!pem) {
    // The one-line form of ssh-keygen's `.pub` files.
    if (/^\s*(ssh-|ecdsa-|sk-)\S+ [A-Za-z0-9+/=]+/.test(text)) {
      return 'it is a public key, not a private key'
    }
    return NOT_A_KEY
  }
  if (pem.kind === 'PUBLIC') return 'it is a public key, not a private key'
  const tooCostly = excessiveKdfCost(pem)
  if (tooCostly) return tooCostly
  const outcome = await openInWorker(text, passphrase, pem.alg === 'OPENSSH')
  if (outcome.ok) return null
  if ('timedOut' in outcome) return 'opening it with the passphrase takes too long'
  // OpenSSL asks for a missing passphrase and reports the unanswered question as cancelled.
  if (/encrypted|passphrase|bad decrypt|interrupted or cancelled/i.test(outcome.message)) {
    return passphrase ? 'the passphrase does not open it' : 'it is encrypted: enter its passphrase'
  }
  if (/not a private key/i.test(outcome.message)) return 'it is a public key, not a private key'
  // A wrong passphrase on an encrypted PEM key now and then yields valid padding, and the
  // garbage it decrypts to fails to parse instead of failing to decrypt.
  if (passphrase && /ENCRYPTED/.test(text)) return 'the passphrase does not open it'
  return NOT_A_KEY
}
