import { access, defineRoute } from '../http.js'
import { LoginBody, LoginMetadata, RecoveryBody, VerifyBody } from './auth.schemas.js'

export const getLoginMetadata = defineRoute({
  method: 'GET',
  path: '/api/auth/login',
  access: access.public,
  response: LoginMetadata,
  status: 200,
})

export const login = defineRoute({
  method: 'POST',
  path: '/api/auth/login',
  access: access.public,
  body: LoginBody,
  status: 204,
})

export const logout = defineRoute({
  method: 'POST',
  path: '/api/auth/logout',
  access: access.public,
  status: 204,
})

/**
 * Second sign-in step: a code of the authenticator app verifies a session that still needs
 * one (200, empty). A session that needs none answers 204.
 */
export const verifyTotp = defineRoute({
  method: 'POST',
  path: '/api/auth/verify',
  access: access.public,
  body: VerifyBody,
  status: 200,
})

/** Verifies a session with the recovery code instead; this turns two-factor sign-in off. */
export const recoverTotp = defineRoute({
  method: 'POST',
  path: '/api/auth/recovery',
  access: access.public,
  body: RecoveryBody,
  status: 204,
})
