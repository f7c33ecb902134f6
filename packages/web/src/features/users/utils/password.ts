import { useQuery } from '@tanstack/react-query'
import { infoQueryOptions } from '../../system/api/get-info'

/** The server's default for FLAGMAN_PASSWORD_MIN_LENGTH, used until /api/info says otherwise. */
export const DEFAULT_PASSWORD_MIN_LENGTH = 8

/** Length of a sample password, and the characters it is made of. */
export const SAMPLE_PASSWORD_LENGTH = 10
const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

/**
 * The shortest password the server accepts; servers that do not say get the default. Read
 * from the system information the console loads once signed in, without asking again.
 */
export function usePasswordMinLength(): number {
  const info = useQuery({ ...infoQueryOptions(), enabled: false })
  return info.data?.password_min_length ?? DEFAULT_PASSWORD_MIN_LENGTH
}

/** Characters as people count them (and as the server does): code points. */
export function passwordLength(password: string): number {
  return [...password].length
}

/**
 * A sample password of random letters and digits from the browser's cryptographic source.
 * Bytes of 248 and above are drawn again, so every character is equally likely.
 */
export function samplePassword(
  length = SAMPLE_PASSWORD_LENGTH,
  random: (length: number) => Uint8Array = (count) => crypto.getRandomValues(new Uint8Array(count)),
): string {
  const limit = 256 - (256 % ALPHANUMERIC.length)
  let result = ''
  while (result.length < length) {
    for (const byte of random(length * 2)) {
      if (byte >= limit) continue
      result += ALPHANUMERIC[byte % ALPHANUMERIC.length]
      if (result.length === length) break
    }
  }
  return result
}
