import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CurrentUser, LoginMetadata, type OidcError } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody } from '../support/http.js'
import {
  browse,
  CookieJar,
  newClient,
  signInAtProvider,
  startOidcProvider,
  type ProviderClient,
  type TestOidcProvider,
} from '../support/oidc-provider.js'
import { startTestServer, type TestServer } from '../support/server.js'

/*
 * Single sign-on against two real OpenID providers on 127.0.0.1 (one found by discovery, one
 * given by its endpoints), driven as a browser would: redirects, the provider's sign-in and
 * consent forms, cookies per host.
 */

/** A port nothing listens on: a provider that is down. */
async function closedPort(): Promise<number> {
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const address = probe.address()
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  if (typeof address !== 'object' || !address) throw new Error('no port')
  return address.port
}

describe.each(dialects())('single sign-on (OIDC) on %s', (dialect) => {
  let server: TestServer
  let world: World
  let alpha: TestOidcProvider
  let beta: TestOidcProvider
  let alphaClient: ProviderClient
  let betaClient: ProviderClient
  let configDir: string

  /** Where a sign-on of `login` at `provider` ends: the callback's answer. */
  async function signOn(
    id: 'alpha' | 'beta',
    login: string,
    redirect?: string,
    jar = new CookieJar(),
  ): Promise<{ jar: CookieJar; callback: string; response: Response }> {
    const provider = id === 'alpha' ? alpha : beta
    const start = `${server.url}/api/auth/oidc/${id}/login${
      redirect === undefined ? '' : `?${new URLSearchParams({ redirect }).toString()}`
    }`
    const back = await signInAtProvider(jar, provider.issuer, start, login)
    expect(back.url.startsWith(`${server.url}/api/auth/oidc/${id}/redirect?`), back.url).toBe(true)
    return { jar, callback: back.url, response: await browse(jar, back.url) }
  }

  function location(response: Response): string {
    expect(response.status).toBe(307)
    return response.headers.get('location') ?? ''
  }

  function expectRefused(response: Response, error: OidcError): void {
    expect(location(response)).toBe(`/auth/login?error=${error}`)
    expect(response.headers.getSetCookie().some((c) => /^semaphore=[^;]/.test(c))).toBe(false)
  }

  async function currentUser(jar: CookieJar) {
    const response = await browse(jar, `${server.url}/api/user`)
    expect(response.status).toBe(200)
    return CurrentUser.parse(await response.json())
  }

  beforeAll(async () => {
    alpha = await startOidcProvider()
    beta = await startOidcProvider()
    configDir = mkdtempSync(join(tmpdir(), 'flagman-oidc-'))
    alphaClient = newClient('alpha')
    betaClient = newClient('beta')
    writeFileSync(join(configDir, 'alpha-secret'), `${alphaClient.clientSecret}\n`)
    const config = {
      alpha: {
        display_name: 'Alpha ID',
        color: '#1565c0',
        icon: 'login',
        order: 2,
        provider_url: alpha.issuer,
        client_id: alphaClient.clientId,
        client_secret_file: 'alpha-secret',
      },
      beta: {
        display_name: 'Beta SSO',
        color: 'teal',
        icon: 'github',
        order: 1,
        endpoint: {
          issuer: beta.issuer,
          auth: `${beta.issuer}/auth`,
          token: `${beta.issuer}/token`,
          userinfo: `${beta.issuer}/me`,
          jwks: `${beta.issuer}/jwks`,
        },
        client_id: betaClient.clientId,
        client_secret: betaClient.clientSecret,
        username_claim: 'nickname | preferred_username',
        name_claim: 'name',
      },
      down: {
        display_name: 'Down',
        order: 3,
        provider_url: `http://127.0.0.1:${await closedPort()}`,
        client_id: 'nobody',
      },
    }
    writeFileSync(join(configDir, 'oidc.json'), JSON.stringify(config))
    server = await startTestServer(dialect, {
      FLAGMAN_OIDC_CONFIG: join(configDir, 'oidc.json'),
    })
    world = new World(server)
    alpha.serve([{ ...alphaClient, redirectUris: [`${server.url}/api/auth/oidc/alpha/redirect`] }])
    beta.serve([{ ...betaClient, redirectUris: [`${server.url}/api/auth/oidc/beta/redirect`] }])
  })

  afterAll(async () => {
    await server?.stop()
    await alpha?.stop()
    await beta?.stop()
    if (configDir) rmSync(configDir, { recursive: true, force: true })
  })

  it('lists the providers in their order, without any secret', async () => {
    const result = await world.request('GET', '/api/auth/login')
    const metadata = expectBody(result, 200, LoginMetadata)
    expect(metadata.oidc_providers).toEqual([
      { id: 'beta', name: 'Beta SSO', color: 'teal', icon: 'github' },
      { id: 'alpha', name: 'Alpha ID', color: '#1565c0', icon: 'login' },
      { id: 'down', name: 'Down', color: '', icon: '' },
    ])
    expect(metadata.login_with_password).toBe(true)
    expect(result.text).not.toContain(alphaClient.clientSecret)
    expect(result.text).not.toContain(betaClient.clientSecret)
  })

  it('creates an external user on first sign-on and lands on the asked path', async () => {
    const login = unique('olivia')
    alpha.accounts.set(login, { email: `${login}@corp.test`, name: 'Olivia Example' })
    const { jar, response } = await signOn('alpha', login, '/project/premium?x=1')
    expect(location(response)).toBe('/project/premium?x=1')
    const me = await currentUser(jar)
    expect(me).toMatchObject({
      username: login,
      email: `${login}@corp.test`,
      name: login,
      external: true,
      admin: false,
    })
  })

  it('matches an existing external user by email, through either provider', async () => {
    const login = unique('mia')
    const email = `${login}@corp.test`
    alpha.accounts.set(login, { email })
    beta.accounts.set(`b-${login}`, { email: email.toUpperCase(), name: 'Mia B' })
    const first = await signOn('alpha', login)
    expect(location(first.response)).toBe('/')
    const firstUser = await currentUser(first.jar)
    const second = await signOn('beta', `b-${login}`)
    expect(location(second.response)).toBe('/')
    const secondUser = await currentUser(second.jar)
    expect(secondUser.id).toBe(firstUser.id)
    expect(secondUser.username).toBe(login)
  })

  it('takes the name and username claims the provider configuration names', async () => {
    const login = unique('noah')
    beta.accounts.set(login, { email: `${login}@corp.test`, name: 'Noah Beta' })
    const { jar, response } = await signOn('beta', login)
    expect(location(response)).toBe('/')
    expect(await currentUser(jar)).toMatchObject({ username: login, name: 'Noah Beta' })
  })

  it('refuses when a local (password) user owns the email', async () => {
    const local = await world.createUser({ email: `${unique('local')}@corp.test` })
    const login = unique('intruder')
    alpha.accounts.set(login, { email: local.email })
    const { response } = await signOn('alpha', login)
    expectRefused(response, 'oidc_local_account')
  })

  it('refuses an email the provider has not verified', async () => {
    const login = unique('unverified')
    alpha.accounts.set(login, { email: `${login}@corp.test`, emailVerified: false })
    const { response } = await signOn('alpha', login)
    expectRefused(response, 'oidc_unverified_email')
  })

  it('refuses a forged state and a state used before', async () => {
    const login = unique('state')
    alpha.accounts.set(login, { email: `${login}@corp.test` })
    const jar = new CookieJar()
    const start = `${server.url}/api/auth/oidc/alpha/login`
    const back = await signInAtProvider(jar, alpha.issuer, start, login)
    const forged = new URL(back.url)
    forged.searchParams.set('state', 'forged-state-value')
    const stateCookie = jar.get(server.url, 'oauthstate') ?? ''
    expect(stateCookie).not.toBe('')
    expectRefused(await browse(jar, forged.href), 'oidc_invalid_state')

    // The genuine answer still signs in, once: the same state a second time is refused.
    jar.set(server.url, 'oauthstate', stateCookie)
    expect(location(await browse(jar, back.url))).toBe('/')
    jar.set(server.url, 'oauthstate', stateCookie)
    expectRefused(await browse(jar, back.url), 'oidc_invalid_state')

    // A state without the browser's cookie is not accepted either.
    const other = new CookieJar()
    const again = await signInAtProvider(other, alpha.issuer, start, login)
    expectRefused(await browse(new CookieJar(), again.url), 'oidc_invalid_state')
  })

  it('refuses an ID token issued for another client', async () => {
    const login = unique('audience')
    alpha.accounts.set(login, { email: `${login}@corp.test` })
    alpha.wrongAudience = true
    try {
      const { response } = await signOn('alpha', login)
      expectRefused(response, 'oidc_failed')
    } finally {
      alpha.wrongAudience = false
    }
  })

  it('sends the browser back with a clear error when the provider is down or unknown', async () => {
    const down = await browse(new CookieJar(), `${server.url}/api/auth/oidc/down/login`)
    expectRefused(down, 'oidc_provider_unavailable')
    const unknown = await browse(new CookieJar(), `${server.url}/api/auth/oidc/nobody/login`)
    expectRefused(unknown, 'oidc_unknown_provider')
  })

  it('keeps client secrets out of users and events', async () => {
    const admin = await world.admin()
    for (const path of ['/api/users', '/api/events', '/api/info', '/api/user']) {
      const result = await world.request('GET', path, { as: admin.as })
      expect(result.status, path).toBe(200)
      expect(result.text, path).not.toContain(alphaClient.clientSecret)
      expect(result.text, path).not.toContain(betaClient.clientSecret)
    }
  })

  it('keeps only same-site redirect paths', async () => {
    for (const redirect of [
      'https://evil.example/steal',
      '//evil.example/steal',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const login = unique('redirect')
      beta.accounts.set(login, { email: `${login}@corp.test` })
      const { response } = await signOn('beta', login, redirect)
      expect(location(response), redirect).toBe('/')
    }
  })
})

describe('single sign-on configuration', () => {
  it.each([
    ['a file that does not exist', null, /can not read .*ENOENT/],
    ['a file that is not JSON', '{', /is not valid JSON/],
    [
      'a provider without client_id',
      { corp: { provider_url: 'https://id.example' } },
      /"corp": client_id is required/,
    ],
    [
      'both discovery and endpoints',
      {
        corp: {
          client_id: 'x',
          provider_url: 'https://id.example',
          endpoint: {
            issuer: 'https://id.example',
            auth: 'https://id.example/a',
            token: 'https://id.example/t',
            jwks: 'https://id.example/j',
          },
        },
      },
      /give either provider_url or endpoint/,
    ],
    [
      'an unknown key',
      { corp: { client_id: 'x', provider_url: 'https://id.example', scope: 'openid' } },
      /unknown key scope/,
    ],
    [
      'a claim template',
      { corp: { client_id: 'x', provider_url: 'https://id.example', email_claim: '{{ .mail }}' } },
      /email_claim: templates are not supported/,
    ],
  ])('stops the server on %s, naming the mistake', async (_what, content, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'flagman-oidc-bad-'))
    const file = join(dir, 'oidc.json')
    if (content !== null) {
      writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content))
    }
    try {
      // The server's data folder is this one, so nothing is left behind.
      const started = startTestServer(
        'sqlite',
        { FLAGMAN_OIDC_CONFIG: file },
        { reuse: { dataDir: dir, scratch: { url: undefined, drop: async () => {} } } },
      )
      await expect(started).rejects.toThrow(/Invalid setting FLAGMAN_OIDC_CONFIG/)
      await expect(started).rejects.toThrow(message)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
