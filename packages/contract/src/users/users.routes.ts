import { z } from 'zod'
import { PathId } from '../common/fields.js'
import { access, defineRoute } from '../http.js'
import {
  ApiToken,
  CreateUserBody,
  CurrentUser,
  SetPasswordBody,
  TotpEnrolment,
  UpdateUserBody,
  User,
  UserSummary,
} from './users.schemas.js'

export const UserParams = z.object({ user_id: PathId })
export const TotpParams = z.object({ user_id: PathId, totp_id: PathId })
export const TokenParams = z.object({ token_id: z.string().min(1).max(64) })

export const getCurrentUser = defineRoute({
  method: 'GET',
  path: '/api/user',
  access: access.auth,
  response: CurrentUser,
  status: 200,
})

export const listTokens = defineRoute({
  method: 'GET',
  path: '/api/user/tokens',
  access: access.auth,
  response: z.array(ApiToken),
  status: 200,
})

/**
 * Creates an API token. The body (`CreateTokenBody`: name, expires_at) is optional, as in
 * the compatible API, so it is not declared here: the server reads it itself.
 */
export const createToken = defineRoute({
  method: 'POST',
  path: '/api/user/tokens',
  access: access.auth,
  response: ApiToken,
  status: 201,
})

export const expireToken = defineRoute({
  method: 'DELETE',
  path: '/api/user/tokens/:token_id',
  access: access.auth,
  params: TokenParams,
  status: 204,
})

/** Admins get full users; other users get id, username and name only. */
export const listUsers = defineRoute({
  method: 'GET',
  path: '/api/users',
  access: access.auth,
  response: z.array(z.union([User, UserSummary])),
  status: 200,
})

export const createUser = defineRoute({
  method: 'POST',
  path: '/api/users',
  access: access.adminElse401,
  body: CreateUserBody,
  response: User,
  status: 201,
})

export const getUser = defineRoute({
  method: 'GET',
  path: '/api/users/:user_id',
  access: access.self,
  params: UserParams,
  response: User,
  status: 200,
})

export const updateUser = defineRoute({
  method: 'PUT',
  path: '/api/users/:user_id',
  access: access.self,
  params: UserParams,
  body: UpdateUserBody,
  status: 204,
})

export const deleteUser = defineRoute({
  method: 'DELETE',
  path: '/api/users/:user_id',
  access: access.self,
  params: UserParams,
  status: 204,
})

export const setUserPassword = defineRoute({
  method: 'POST',
  path: '/api/users/:user_id/password',
  access: access.self,
  params: UserParams,
  body: SetPasswordBody,
  status: 204,
})

/** Turns on two-factor sign-in: a new secret, and a recovery code when recovery is allowed. */
export const enableTotp = defineRoute({
  method: 'POST',
  path: '/api/users/:user_id/2fas/totp',
  access: access.self,
  params: UserParams,
  response: TotpEnrolment,
  status: 200,
})

/** The `otpauth://` address as a PNG QR code, for an authenticator app to scan. */
export const getTotpQr = defineRoute({
  method: 'GET',
  path: '/api/users/:user_id/2fas/totp/:totp_id/qr',
  access: access.self,
  params: TotpParams,
  status: 200,
})

/** Turns two-factor sign-in off, by the user or by an administrator. */
export const disableTotp = defineRoute({
  method: 'DELETE',
  path: '/api/users/:user_id/2fas/totp/:totp_id',
  access: access.self,
  params: TotpParams,
  status: 204,
})
