import { OIDC_LOGIN_PATH, OIDC_REDIRECT_PATH, type OidcError } from '@flagman/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { FLOW_TTL_SECONDS, OidcFailure, OidcService } from './oidc.service.js'
import { isHttps, openSession } from './session.js'
import { needsSecondFactor } from './totp.service.js'

/** Cookie binding a started sign-on to the browser that started it. */
export const OIDC_STATE_COOKIE = 'oauthstate'
/** The cookie is only sent back to the sign-on routes. */
const STATE_COOKIE_PATH = '/api/auth/oidc/'
const LOGIN_PAGE = '/auth/login'

type ProviderRequest = FastifyRequest<{
  Params: { provider_id: string }
  Querystring: Record<string, unknown>
}>

/** Back to the sign-in page with the reason the console explains. */
function toLoginPage(reply: FastifyReply, error: OidcError): FastifyReply {
  return reply.redirect(`${LOGIN_PAGE}?${new URLSearchParams({ error }).toString()}`, 307)
}

/**
 * Single sign-on routes. They answer with redirects for the browser, never with JSON: a
 * failure of any kind (unknown provider, provider down, forged state, refused user) sends
 * it back to the sign-in page with an `error` the console shows.
 */
export function oidcRoutes(app: FastifyInstance): void {
  const oidc = new OidcService(app.config)

  function failed(request: FastifyRequest, reply: FastifyReply, provider: string, error: unknown) {
    const failure =
      error instanceof OidcFailure ? error : new OidcFailure('oidc_failed', String(error))
    if (!(error instanceof OidcFailure)) request.log.error({ err: error }, 'single sign-on failed')
    else request.log.warn({ provider, reason: failure.message }, `single sign-on: ${failure.code}`)
    return toLoginPage(reply, failure.code)
  }

  app.get(OIDC_LOGIN_PATH, async (request: ProviderRequest, reply) => {
    const provider = String(request.params.provider_id)
    try {
      const origin = app.config.webHost || `${request.protocol}://${request.host}`
      const flow = await oidc.start(provider, origin, request.query.redirect)
      reply.setCookie(OIDC_STATE_COOKIE, flow.state, {
        path: STATE_COOKIE_PATH,
        httpOnly: true,
        // Lax: sent along when the provider sends the browser back (a top-level GET).
        sameSite: 'lax',
        secure: isHttps(request),
        maxAge: FLOW_TTL_SECONDS,
      })
      return reply.redirect(flow.authorizationUrl, 307)
    } catch (error) {
      return failed(request, reply, provider, error)
    }
  })

  app.get(OIDC_REDIRECT_PATH, async (request: ProviderRequest, reply) => {
    const provider = String(request.params.provider_id)
    const cookieState = request.cookies[OIDC_STATE_COOKIE]
    reply.clearCookie(OIDC_STATE_COOKIE, { path: STATE_COOKIE_PATH })
    try {
      const signedOn = await oidc.finish(app.db, provider, request.query, cookieState)
      // A second factor set up here is still asked for, as after a password.
      const verified = !(await needsSecondFactor(app.db, app.config, signedOn.userId))
      await openSession(app.db, request, reply, signedOn.userId, verified)
      request.log.info({ provider, user: signedOn.userId }, 'signed in by single sign-on')
      return reply.redirect(signedOn.redirect, 307)
    } catch (error) {
      return failed(request, reply, provider, error)
    }
  })
}
