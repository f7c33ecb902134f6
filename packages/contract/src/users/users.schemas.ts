import { z } from 'zod'
import { Bool, Id, MAX_NAME_LENGTH, Timestamp, typeError } from '../common/fields.js'

export const MIN_PASSWORD_LENGTH = 1
export const MAX_PASSWORD_LENGTH = 1024

/** A user's second factor as users are shown: never its secret nor its recovery code. */
export const UserTotp = z.object({
  id: Id,
  created: Timestamp,
  user_id: Id,
})
export type UserTotp = z.infer<typeof UserTotp>

/**
 * The answer to enabling two-factor sign-in, the only time the secret (inside `url`, an
 * `otpauth://` address) and the recovery code (when recovery is allowed) are shown.
 */
export const TotpEnrolment = UserTotp.extend({
  url: z.string(),
  recovery_code: z.string().optional(),
})
export type TotpEnrolment = z.infer<typeof TotpEnrolment>

export const User = z.object({
  id: Id,
  created: Timestamp,
  username: z.string(),
  name: z.string(),
  email: z.string(),
  admin: z.boolean(),
  external: z.boolean(),
  alert: z.boolean(),
  pro: z.boolean(),
  /** Present when the user has two-factor sign-in and the server has it enabled. */
  totp: UserTotp.optional(),
})
export type User = z.infer<typeof User>

/** What non-admins see of other users. */
export const UserSummary = z.object({ id: Id, username: z.string(), name: z.string() })
export type UserSummary = z.infer<typeof UserSummary>

export const CurrentUser = User.extend({
  can_create_project: z.boolean(),
  has_active_subscription: z.boolean(),
})
export type CurrentUser = z.infer<typeof CurrentUser>

const username = z
  .string({ error: typeError('username', 'a string') })
  .trim()
  .min(1, 'username can not be empty')
  .max(MAX_NAME_LENGTH, `username must be at most ${MAX_NAME_LENGTH} characters`)
  .regex(/^[^\s]+$/, 'username can not contain spaces')
const name = z
  .string({ error: typeError('name', 'a string') })
  .trim()
  .min(1, 'name can not be empty')
  .max(MAX_NAME_LENGTH, `name must be at most ${MAX_NAME_LENGTH} characters`)
const email = z
  .string({ error: typeError('email', 'a string') })
  .trim()
  .min(1, 'email can not be empty')
  .max(MAX_NAME_LENGTH, `email must be at most ${MAX_NAME_LENGTH} characters`)
  .regex(/^[^\s@]+@[^\s@]+$/, 'email must be a valid email address')
export const Password = z
  .string({ error: typeError('password', 'a string') })
  .min(MIN_PASSWORD_LENGTH, 'password can not be empty')
  .max(MAX_PASSWORD_LENGTH, `password must be at most ${MAX_PASSWORD_LENGTH} characters`)

export const CreateUserBody = z.object({
  username,
  name,
  email,
  password: Password.optional(),
  admin: Bool('admin').optional(),
  external: Bool('external').optional(),
  alert: Bool('alert').optional(),
  pro: Bool('pro').optional(),
})
export type CreateUserBody = z.input<typeof CreateUserBody>

export const UpdateUserBody = z.object({
  username,
  name,
  email,
  /** Non-empty: changes the password. */
  password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  /** Required with `password` when users change their own password. */
  current_password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
  admin: Bool('admin').optional(),
  alert: Bool('alert').optional(),
  pro: Bool('pro').optional(),
})
export type UpdateUserBody = z.input<typeof UpdateUserBody>

export const SetPasswordBody = z.object({
  password: Password,
  /** Required when users change their own password; administrators resetting another's do not send it. */
  current_password: z.string().max(MAX_PASSWORD_LENGTH).optional(),
})
export type SetPasswordBody = z.input<typeof SetPasswordBody>

export const ApiToken = z.object({
  /** The whole token when it is created (shown that once); in lists, its first characters. */
  id: z.string(),
  created: Timestamp,
  /** Revoked, ended by a password change, or past its expiry. */
  expired: z.boolean(),
  user_id: Id,
  name: z.string(),
  /** When the token stops working; null: never. */
  expires_at: Timestamp.nullable(),
  /** When the token was last used, to the minute; null: never. */
  last_used: Timestamp.nullable(),
  /** The first characters of the token, to tell tokens apart. */
  prefix: z.string(),
})
export type ApiToken = z.infer<typeof ApiToken>

/** Longest API token name. */
export const MAX_TOKEN_NAME_LENGTH = 100

/**
 * Body of `POST /api/user/tokens`, which may also be sent without one (the compatible API
 * needs none): an unnamed token that never expires.
 */
export const CreateTokenBody = z.object({
  name: z
    .string({ error: typeError('name', 'a string') })
    .trim()
    .max(MAX_TOKEN_NAME_LENGTH, `name must be at most ${MAX_TOKEN_NAME_LENGTH} characters`)
    .optional(),
  /** RFC 3339 time with a time zone; null or absent: the token never expires. */
  expires_at: z.iso
    .datetime({
      offset: true,
      error: 'expires_at must be a date and time like 2030-01-31T12:00:00Z',
    })
    .nullable()
    .optional(),
})
export type CreateTokenBody = z.input<typeof CreateTokenBody>
