import { BadRequestError } from '../../platform/errors.js'

/** The message for a password shorter than the configured minimum, shared by API and CLI. */
export function passwordTooShortMessage(minLength: number): string {
  return `Password must be at least ${minLength} characters`
}

/**
 * Refuses a password shorter than `minLength`. Characters are counted as people see them
 * (code points), so an emoji is one character, not two.
 */
export function checkPasswordLength(password: string, minLength: number): void {
  if ([...password].length < minLength) {
    throw new BadRequestError(passwordTooShortMessage(minLength))
  }
}
