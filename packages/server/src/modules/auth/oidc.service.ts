import { randomBytes } from 'node:crypto'
import type { OidcError, OidcProvider } from '@flagman/contract'
import type { Db } from '@flagman/db'
import * as client from 'openid-client'
import type { Config } from '../../config.js'
import { createUser } from '../users/index.js'
import type { OidcProviderConfig } from './oidc-config.js'

/** How long a started sign-on may take at the provider before it has to be started again. */
export const FLOW_TTL_SECONDS = 10 * 60
/** Sign-ons waiting for their provider at most; the oldest go first beyond this. */
const MAX_PENDING_FLOWS = 10_000
/** Seconds every request to a provider may take. */
const PROVIDER_TIMEOUT_SECONDS = 10
const USERNAME_MAX = 255

/** A failed sign-on: the browser goes back to the sign-in page with `code`. */
export class OidcFailure extends Error {
  constructor(
    readonly code: OidcError,
    message: string,
  ) {
    super(message)
  }
}

/** The providers as the sign-in page lists them, in `order`. */
export function oidcProviderList(config: Config): OidcProvider[] {
  return config.oidcProviders.map((p) => ({
    id: p.id,
    name: p.displayName,
    color: p.color,
    icon: p.icon,
  }))
}

/**
 * Plain HTTP is accepted only for a provider on this machine (loopback), where nothing
 * travels over a network; everywhere else the provider must use HTTPS.
 */
function isLoopback(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host)
}

function allowedAddress(value: string | undefined): boolean {
  if (!value) return true
  const url = new URL(value)
  return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback(url))
}

interface PendingFlow {
  provider: string
  verifier: string
  nonce: string
  callback: string
  redirect: string
  expires: number
}

export interface StartedFlow {
  state: string
  authorizationUrl: string
}

export interface SignedOn {
  userId: number
  redirect: string
}

function claimValue(claims: Record<string, unknown>, names: string[]): string {
  for (const name of names) {
    const value = claims[name]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return ''
}

function randomUsername(): string {
  return randomBytes(12).toString('base64url').toLowerCase().replace(/[-_]/g, 'x').slice(0, 16)
}

function usableUsername(value: string): string {
  return value && value.length <= USERNAME_MAX && !/\s/.test(value) ? value : randomUsername()
}

/**
 * The same-site path to land on after signing in: only a path of this site is kept (no
 * scheme, no other host, no `//` or `\` tricks); anything else lands on `/`.
 */
export function safeRedirect(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//')) return '/'
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return '/'
  try {
    const base = 'http://flagman.invalid'
    const url = new URL(value, base)
    if (url.origin !== base) return '/'
    return `${url.pathname}${url.search}${url.hash}`
  } catch {
    return '/'
  }
}

/**
 * Single sign-on with OpenID Connect providers: the authorization code flow with PKCE, a
 * random `state` bound to the browser by a cookie and a `nonce` checked in the ID token.
 * What a started flow needs later stays on the server and is used once.
 */
export class OidcService {
  private readonly configurations = new Map<string, Promise<client.Configuration>>()
  private readonly pending = new Map<string, PendingFlow>()

  constructor(private readonly config: Config) {}

  provider(id: string): OidcProviderConfig | undefined {
    return this.config.oidcProviders.find((p) => p.id === id)
  }

  /** The provider's client settings, discovered once; a failure is retried next time. */
  private configuration(provider: OidcProviderConfig): Promise<client.Configuration> {
    let found = this.configurations.get(provider.id)
    if (!found) {
      found = this.discover(provider)
      this.configurations.set(provider.id, found)
      found.catch(() => this.configurations.delete(provider.id))
    }
    return found
  }

  private async discover(provider: OidcProviderConfig): Promise<client.Configuration> {
    let server: client.ServerMetadata
    try {
      if (provider.providerUrl) {
        const issuer = new URL(provider.providerUrl)
        if (!allowedAddress(issuer.href)) throw new Error('the provider must use https')
        const found = await client.discovery(issuer, provider.clientId, undefined, client.None(), {
          timeout: PROVIDER_TIMEOUT_SECONDS,
          ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
        })
        server = found.serverMetadata()
      } else {
        const endpoint = provider.endpoint!
        server = {
          issuer: endpoint.issuer,
          authorization_endpoint: endpoint.auth,
          token_endpoint: endpoint.token,
          jwks_uri: endpoint.jwks,
          ...(endpoint.userinfo ? { userinfo_endpoint: endpoint.userinfo } : {}),
          ...(endpoint.algorithms.length
            ? { id_token_signing_alg_values_supported: endpoint.algorithms }
            : {}),
        }
      }
    } catch (error) {
      throw new OidcFailure('oidc_provider_unavailable', (error as Error).message)
    }
    const addresses = [
      server.issuer,
      server.authorization_endpoint,
      server.token_endpoint,
      server.userinfo_endpoint,
      server.jwks_uri,
    ]
    if (!addresses.every(allowedAddress)) {
      throw new OidcFailure('oidc_provider_unavailable', 'the provider must use https')
    }
    // The client secret goes in the Authorization header where the provider accepts it (the
    // default of the standard), else in the body; a client without a secret relies on PKCE.
    let auth = client.None()
    if (provider.clientSecret) {
      const methods = server.token_endpoint_auth_methods_supported
      auth =
        !methods || methods.includes('client_secret_basic')
          ? client.ClientSecretBasic(provider.clientSecret)
          : client.ClientSecretPost(provider.clientSecret)
    }
    const configuration = new client.Configuration(server, provider.clientId, undefined, auth)
    configuration.timeout = PROVIDER_TIMEOUT_SECONDS
    if (addresses.some((a) => a?.startsWith('http:'))) client.allowInsecureRequests(configuration)
    return configuration
  }

  private remember(state: string, flow: PendingFlow): void {
    const now = Date.now()
    for (const [key, value] of this.pending) {
      if (value.expires <= now || this.pending.size >= MAX_PENDING_FLOWS) this.pending.delete(key)
      else break
    }
    this.pending.set(state, flow)
  }

  /** Takes the flow of `state` out (a state is good once), when it has not expired. */
  private take(state: string): PendingFlow | undefined {
    const flow = this.pending.get(state)
    if (!flow) return undefined
    this.pending.delete(state)
    return flow.expires > Date.now() ? flow : undefined
  }

  /**
   * Starts signing on: the address of the provider's sign-in page, with a new state.
   * `origin` is the console's address, used when the provider names no callback.
   */
  async start(providerId: string, origin: string, redirect: unknown): Promise<StartedFlow> {
    const provider = this.provider(providerId)
    if (!provider) throw new OidcFailure('oidc_unknown_provider', 'unknown provider')
    const configuration = await this.configuration(provider)
    const state = client.randomState()
    const nonce = client.randomNonce()
    const verifier = client.randomPKCECodeVerifier()
    const callback =
      provider.redirectUrl || `${origin}/api/auth/oidc/${encodeURIComponent(provider.id)}/redirect`
    const url = client.buildAuthorizationUrl(configuration, {
      redirect_uri: callback,
      scope: provider.scopes.join(' '),
      response_type: 'code',
      state,
      nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    })
    this.remember(state, {
      provider: provider.id,
      verifier,
      nonce,
      callback,
      redirect: safeRedirect(redirect),
      expires: Date.now() + FLOW_TTL_SECONDS * 1000,
    })
    return { state, authorizationUrl: url.href }
  }

  /**
   * Finishes signing on when the provider sends the browser back: `state` must be the one
   * the browser's cookie holds and a flow started here, for this provider. Answers the user
   * to sign in: matched by email, created as an external user when there is none.
   */
  async finish(
    db: Db,
    providerId: string,
    query: Record<string, unknown>,
    cookieState: string | undefined,
  ): Promise<SignedOn> {
    const state = typeof query.state === 'string' ? query.state : ''
    const flow = state && state === cookieState ? this.take(state) : undefined
    if (!flow || flow.provider !== providerId) {
      throw new OidcFailure('oidc_invalid_state', 'unknown, used or expired state')
    }
    const provider = this.provider(providerId)
    if (!provider) throw new OidcFailure('oidc_unknown_provider', 'unknown provider')
    if (typeof query.error === 'string') {
      throw new OidcFailure('oidc_denied', `the provider answered ${query.error.slice(0, 64)}`)
    }
    const configuration = await this.configuration(provider)
    const current = new URL(flow.callback)
    for (const [name, value] of Object.entries(query)) {
      if (typeof value === 'string') current.searchParams.set(name, value)
    }
    let claims: Record<string, unknown>
    try {
      const tokens = await client.authorizationCodeGrant(configuration, current, {
        pkceCodeVerifier: flow.verifier,
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      })
      claims = { ...tokens.claims() }
      const wanted = [...provider.emailClaim, ...provider.usernameClaim, ...provider.nameClaim]
      const missing = wanted.some((name) => claims[name] === undefined)
      if (missing && configuration.serverMetadata().userinfo_endpoint && tokens.access_token) {
        const info = await client.fetchUserInfo(
          configuration,
          tokens.access_token,
          String(claims.sub),
        )
        claims = { ...info, ...claims }
      }
    } catch (error) {
      // Protocol errors (a refused code, a wrong audience or nonce) carry an OAUTH_ code;
      // anything else means the provider could not be reached.
      const code = (error as { code?: unknown }).code
      const reason =
        typeof code === 'string' && code.startsWith('OAUTH_')
          ? 'oidc_failed'
          : 'oidc_provider_unavailable'
      throw new OidcFailure(reason, (error as Error).message)
    }
    return { userId: await this.matchUser(db, provider, claims), redirect: flow.redirect }
  }

  private async matchUser(
    db: Db,
    provider: OidcProviderConfig,
    claims: Record<string, unknown>,
  ): Promise<number> {
    const email = claimValue(claims, provider.emailClaim)
    if (!email || !/^[^\s@]+@[^\s@]+$/.test(email) || email.length > USERNAME_MAX) {
      throw new OidcFailure('oidc_missing_email', 'the provider gave no usable email')
    }
    if (claims.email_verified === false) {
      throw new OidcFailure('oidc_unverified_email', 'the provider says the email is unverified')
    }
    const existing = await this.userByEmail(db, email)
    if (existing) {
      if (!existing.external) {
        throw new OidcFailure('oidc_local_account', 'a local account has this email')
      }
      return existing.id
    }
    const username = usableUsername(claimValue(claims, provider.usernameClaim))
    const taken = await db.kysely
      .selectFrom('user')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', username.toLowerCase()))
      .executeTakeFirst()
    if (taken) throw new OidcFailure('oidc_username_taken', 'the username is taken')
    const name = claimValue(claims, provider.nameClaim).slice(0, USERNAME_MAX) || 'Anonymous'
    try {
      const user = await createUser(db, null, { username, name, email, external: true })
      return user.id
    } catch {
      // Created by a sign-on racing this one, or the name was taken meanwhile.
      const raced = await this.userByEmail(db, email)
      if (raced?.external) return raced.id
      throw new OidcFailure('oidc_username_taken', 'the username or email is taken')
    }
  }

  private userByEmail(db: Db, email: string) {
    return db.kysely
      .selectFrom('user')
      .select(['id', 'external'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .orderBy('id')
      .executeTakeFirst()
  }
}
