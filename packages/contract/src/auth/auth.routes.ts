import { access, defineRoute } from '../http.js'
import { LoginBody, LoginMetadata } from './auth.schemas.js'

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
