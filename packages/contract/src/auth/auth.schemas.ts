import { z } from 'zod'

export const LoginBody = z.object({
  auth: z
    .string({ error: 'auth (username or email) is required' })
    .trim()
    .min(1, 'auth (username or email) is required')
    .max(255, 'auth must be at most 255 characters'),
  password: z
    .string({ error: 'password is required' })
    .min(1, 'password is required')
    .max(1024, 'password must be at most 1024 characters'),
})
export type LoginBody = z.infer<typeof LoginBody>

export const OidcProvider = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  icon: z.string(),
})
export type OidcProvider = z.infer<typeof OidcProvider>

export const AuthMethods = z.object({
  totp: z.object({ allow_recovery: z.boolean() }).optional(),
})
export type AuthMethods = z.infer<typeof AuthMethods>

export const LoginMetadata = z.object({
  oidc_providers: z.array(OidcProvider),
  login_with_password: z.boolean(),
  auth_methods: AuthMethods,
})
export type LoginMetadata = z.infer<typeof LoginMetadata>

/** Length of the codes an authenticator app shows. */
export const TOTP_CODE_LENGTH = 6

export const VerifyBody = z.object({
  passcode: z
    .string({ error: 'passcode is required' })
    .trim()
    .regex(/^\d{6}$/, `passcode must be ${TOTP_CODE_LENGTH} digits`),
})
export type VerifyBody = z.infer<typeof VerifyBody>

export const RecoveryBody = z.object({
  recovery_code: z
    .string({ error: 'recovery_code is required' })
    .trim()
    .min(1, 'recovery_code is required')
    .max(64, 'recovery_code must be at most 64 characters'),
})
export type RecoveryBody = z.infer<typeof RecoveryBody>

/**
 * Why single sign-on failed: the server sends the browser back to the sign-in page with one
 * of these as `?error=`, and the console shows the matching message.
 */
export const OIDC_ERRORS = [
  'oidc_unknown_provider',
  'oidc_provider_unavailable',
  'oidc_invalid_state',
  'oidc_denied',
  'oidc_failed',
  'oidc_missing_email',
  'oidc_unverified_email',
  'oidc_local_account',
  'oidc_username_taken',
] as const
export type OidcError = (typeof OIDC_ERRORS)[number]

/** Where the browser starts single sign-on with a provider (a redirect, not a JSON call). */
export const OIDC_LOGIN_PATH = '/api/auth/oidc/:provider_id/login'
/** Where the provider sends the browser back to. */
export const OIDC_REDIRECT_PATH = '/api/auth/oidc/:provider_id/redirect'
