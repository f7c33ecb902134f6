// oidc-provider ships no types; the browser tests, which import this file too, need them here.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-module.d.ts" />
import { randomBytes } from 'node:crypto'
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { AddressInfo } from 'node:net'
import { decodeJwt, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose'
import Provider from 'oidc-provider'

/*
 * A real OpenID provider (`oidc-provider`) on 127.0.0.1 for the tests: its own discovery
 * document, keys, sign-in page ("any login, any password"), consent page and token endpoint.
 */

/** Someone who can sign in at the provider, by login. */
export interface ProviderAccount {
  email: string
  name?: string
  username?: string
  emailVerified?: boolean
}

export interface ProviderClient {
  clientId: string
  clientSecret: string
  /** Callback addresses of the relying party. */
  redirectUris: string[]
}

export interface TestOidcProvider {
  /** Issuer address, as `provider_url` names it. */
  issuer: string
  /** Who may sign in, by login; an unknown login gets `<login>@example.test`. */
  accounts: Map<string, ProviderAccount>
  /** While set, the token endpoint hands out ID tokens (properly signed) for another client. */
  wrongAudience: boolean
  /**
   * Registers the clients and starts answering. Separate from starting, because the relying
   * party's callback address is often only known once the provider's address is.
   */
  serve(clients: ProviderClient[]): void
  /** Stops answering: connections are refused from now on, as from a provider that is down. */
  stop(): Promise<void>
}

const AUDIENCE_OF_SOMEONE_ELSE = 'another-client'

function accountClaims(login: string, account: ProviderAccount | undefined) {
  return {
    sub: login,
    email: account?.email ?? `${login}@example.test`,
    email_verified: account?.emailVerified ?? true,
    name: account?.name ?? login,
    preferred_username: account?.username ?? login,
  }
}

/**
 * Replaces the ID token of a token answer with the same claims signed for another audience,
 * with the provider's own key: an ID token the provider really issued, but not for us.
 */
function reSignForOtherAudience(response: ServerResponse, key: CryptoKey, kid: string): void {
  const end = response.end.bind(response) as (body?: unknown) => ServerResponse
  response.end = ((body?: unknown) => {
    const text = Buffer.isBuffer(body)
      ? body.toString('utf8')
      : typeof body === 'string'
        ? body
        : ''
    let answer: { id_token?: string }
    try {
      answer = JSON.parse(text) as { id_token?: string }
    } catch {
      return end(body)
    }
    if (!answer.id_token) return end(body)
    const claims = decodeJwt(answer.id_token)
    void new SignJWT({ ...claims, aud: AUDIENCE_OF_SOMEONE_ELSE })
      .setProtectedHeader({ alg: 'RS256', kid })
      .sign(key)
      .then((token) => {
        const changed = JSON.stringify({ ...answer, id_token: token })
        if (!response.headersSent) response.setHeader('content-length', Buffer.byteLength(changed))
        end(changed)
      })
    return response
  }) as ServerResponse['end']
}

/** Starts listening on a free port of 127.0.0.1; the provider answers once `serve` is called. */
export async function startOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true })
  const kid = randomBytes(8).toString('hex')
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' }
  let handler: RequestListener | null = null
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    if (!handler) {
      response.statusCode = 503
      response.end()
      return
    }
    if (provider.wrongAudience && request.method === 'POST' && request.url === '/token') {
      reSignForOtherAudience(response, privateKey, kid)
    }
    handler(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const issuer = `http://127.0.0.1:${port}`

  const provider: TestOidcProvider = {
    issuer,
    accounts: new Map(),
    wrongAudience: false,
    serve(clients) {
      const oidc = new Provider(issuer, {
        clients: clients.map((c) => ({
          client_id: c.clientId,
          client_secret: c.clientSecret,
          redirect_uris: c.redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        })),
        jwks: { keys: [jwk] },
        cookies: { keys: [randomBytes(16).toString('hex')] },
        claims: {
          openid: ['sub'],
          email: ['email', 'email_verified'],
          profile: ['name', 'preferred_username'],
        },
        // Profile and email claims come from the userinfo endpoint, as with most providers.
        conformIdTokenClaims: true,
        pkce: { required: () => true },
        ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
        features: { devInteractions: { enabled: true } },
        findAccount: (_ctx: unknown, id: string) => ({
          accountId: id,
          claims: () => accountClaims(id, provider.accounts.get(id)),
        }),
      })
      // The library warns about its development-only sign-in page; that is what is wanted here.
      oidc.on('server_error', () => undefined)
      handler = oidc.callback()
    },
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    },
  }
  return provider
}

/** A new client id and secret; the callback addresses are added once known. */
export function newClient(name: string): ProviderClient {
  return {
    clientId: `${name}-${randomBytes(4).toString('hex')}`,
    clientSecret: randomBytes(24).toString('base64url'),
    redirectUris: [],
  }
}

/** Cookies a client keeps between requests, by host, as a browser would (names only). */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>()

  take(url: string, response: Response): void {
    const host = new URL(url).host
    const jar = this.cookies.get(host) ?? new Map<string, string>()
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';')
      const at = pair?.indexOf('=') ?? -1
      if (!pair || at < 1) continue
      const name = pair.slice(0, at).trim()
      const value = pair.slice(at + 1).trim()
      const expired = /max-age=0|expires=thu, 01 jan 1970/i.test(line)
      if (expired || value === '') jar.delete(name)
      else jar.set(name, value)
    }
    this.cookies.set(host, jar)
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host)
    return jar ? [...jar].map(([name, value]) => `${name}=${value}`).join('; ') : ''
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).host)?.get(name)
  }

  set(url: string, name: string, value: string): void {
    const host = new URL(url).host
    const jar = this.cookies.get(host) ?? new Map<string, string>()
    jar.set(name, value)
    this.cookies.set(host, jar)
  }
}

/** One step of a browser: a request with the jar's cookies, without following redirects. */
export async function browse(
  jar: CookieJar,
  url: string,
  init: { method?: string; form?: Record<string, string> } = {},
): Promise<Response> {
  const headers: Record<string, string> = {}
  const cookie = jar.header(url)
  if (cookie) headers.Cookie = cookie
  let body: string | undefined
  if (init.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded'
    body = new URLSearchParams(init.form).toString()
  }
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers,
    body,
    redirect: 'manual',
  })
  jar.take(url, response)
  return response
}

/**
 * Goes through the provider's own pages as a person would: follows redirects from `url`,
 * fills in the sign-in form with `login` and accepts the consent page, until the browser is
 * sent to an address outside the provider. Answers that last redirect response and its URL.
 */
export async function signInAtProvider(
  jar: CookieJar,
  issuer: string,
  url: string,
  login: string,
): Promise<{ url: string; response: Response }> {
  let current = url
  for (let step = 0; step < 20; step++) {
    const response = await browse(jar, current)
    if (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', current).href
      if (!next.startsWith(issuer) && step > 0) return { url: next, response }
      current = next
      continue
    }
    if (!current.startsWith(issuer)) return { url: current, response }
    const page = await response.text()
    const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
    if (!action) throw new Error(`no form on the provider's page ${current}:\n${page}`)
    const prompt = /name="prompt" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const form: Record<string, string> =
      prompt === 'login' ? { prompt, login, password: 'any-password' } : { prompt }
    const submitted = await browse(jar, new URL(action.replace(/&amp;/g, '&'), current).href, {
      method: 'POST',
      form,
    })
    if (submitted.status < 300 || submitted.status >= 400) {
      throw new Error(`the provider answered the ${prompt} form with ${submitted.status}`)
    }
    current = new URL(submitted.headers.get('location') ?? '', current).href
  }
  throw new Error('too many redirects at the provider')
}
