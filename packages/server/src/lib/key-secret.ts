import type { SecretBox } from './secret-box.js'

/** Secret material of a key, as stored (encrypted JSON) in `access_key.secret`. */
export type KeySecret =
  | { type: 'ssh'; login: string; passphrase: string; private_key: string }
  | { type: 'login_password'; login: string; password: string }

export function encryptKeySecret(box: SecretBox, secret: KeySecret | null): string | null {
  return secret ? box.encrypt(JSON.stringify(secret)) : null
}

/** Reads a key's secret for running tasks; never for API answers. */
export function decryptKeySecret(box: SecretBox, stored: string | null): KeySecret | null {
  return stored ? (JSON.parse(box.decrypt(stored)) as KeySecret) : null
}
