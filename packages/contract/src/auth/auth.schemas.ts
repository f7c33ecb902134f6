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
