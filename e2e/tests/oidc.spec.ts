import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser, type ApiClient } from '@flagman/contract'
import type { Page } from '@playwright/test'
import {
  newClient,
  startOidcProvider,
  type ProviderClient,
  type TestOidcProvider,
} from '../../packages/server/test/support/oidc-provider.js'
import {
  addMember,
  expect,
  newProject,
  newUser,
  test,
  uniqueId,
  userMenuButton,
} from '../support/fixtures.js'
import { apiSignInAt, startOwnServer, type OwnServer } from '../support/own-server.js'

/*
 * Single sign-on needs providers the shared browser-test server does not have, so these
 * journeys run against a server of their own, configured with two real OpenID providers
 * (`oidc-provider`) on 127.0.0.1, each with its own sign-in page.
 */

const ADMIN = { login: 'admin', password: 'oidc-admin-password', email: 'admin@oidc.test' }

let dir: string
let server: OwnServer
let admin: ApiClient
let alpha: TestOidcProvider
let beta: TestOidcProvider

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flagman-e2e-oidc-'))
  alpha = await startOidcProvider()
  beta = await startOidcProvider()
  const alphaClient: ProviderClient = newClient('alpha')
  const betaClient: ProviderClient = newClient('beta')
  const config = join(dir, 'oidc.json')
  writeFileSync(
    config,
    JSON.stringify({
      alpha: {
        display_name: 'Alpha ID',
        color: '#6a1b9a',
        icon: 'mdi-key',
        order: 1,
        provider_url: alpha.issuer,
        client_id: alphaClient.clientId,
        client_secret: alphaClient.clientSecret,
      },
      beta: {
        display_name: 'Beta SSO',
        color: '#00695c',
        icon: 'mdi-microsoft',
        order: 2,
        provider_url: beta.issuer,
        client_id: betaClient.clientId,
        client_secret: betaClient.clientSecret,
        name_claim: 'name',
      },
    }),
  )
  server = await startOwnServer({
    admin: ADMIN,
    settings: { FLAGMAN_OIDC_CONFIG: config },
    dataDir: join(dir, 'data'),
  })
  alpha.serve([{ ...alphaClient, redirectUris: [`${server.url}/api/auth/oidc/alpha/redirect`] }])
  beta.serve([{ ...betaClient, redirectUris: [`${server.url}/api/auth/oidc/beta/redirect`] }])
  admin = await apiSignInAt(server.url, ADMIN.login, ADMIN.password)
})

test.afterAll(async () => {
  await server?.stop()
  await alpha?.stop()
  await beta?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

/** Signs in on the provider's own pages: its sign-in form, then its consent page. */
async function signInAtProvider(page: Page, issuer: string, login: string): Promise<void> {
  await expect(page).toHaveURL((url) => url.href.startsWith(issuer))
  await page.getByPlaceholder('Enter any login').fill(login)
  await page.getByPlaceholder('and password').fill('any-password')
  await page.getByRole('button', { name: 'Sign-in' }).click()
  await page.getByRole('button', { name: 'Continue' }).click()
}

test.describe('single sign-on', () => {
  test('the sign-in page offers both providers, in order and in their colours', async ({
    page,
  }) => {
    await page.goto(`${server.url}/auth/login`)
    const buttons = page.getByRole('link', { name: /Alpha ID|Beta SSO/ })
    await expect(buttons).toHaveText(['Alpha ID', 'Beta SSO'])
    await expect(buttons.first()).toHaveCSS('background-color', 'rgb(106, 27, 154)')
    await expect(buttons.nth(1)).toHaveCSS('background-color', 'rgb(0, 105, 92)')
    // The password form stays for local accounts.
    await expect(page.getByRole('textbox', { name: 'Username or email' })).toBeVisible()
  })

  test('a new person signs in through the first provider and lands in the console', async ({
    page,
  }) => {
    const login = `olga-${uniqueId()}`
    alpha.accounts.set(login, { email: `${login}@alpha.test`, name: 'Olga Alpha' })
    await page.goto(`${server.url}/auth/login`)
    await page.getByRole('link', { name: 'Alpha ID' }).click()
    await signInAtProvider(page, alpha.issuer, login)
    // A new external user has no project yet: the console opens the new-project page.
    await expect(page).toHaveURL(`${server.url}/project/new`)
    await expect(userMenuButton(page, login)).toBeVisible()
  })

  test('a known person signs in through the second provider into their project', async ({
    page,
  }) => {
    const login = `bruno-${uniqueId()}`
    const email = `${login}@beta.test`
    const user = await admin.call(createUser, {
      body: { username: login, name: 'Bruno Beta', email, external: true },
    })
    const project = await newProject(admin, `SSO ${uniqueId()}`)
    await addMember(admin, project, user, 'guest')
    beta.accounts.set(login, { email, name: 'Bruno Beta' })
    await page.goto(`${server.url}/auth/login`)
    await page.getByRole('link', { name: 'Beta SSO' }).click()
    await signInAtProvider(page, beta.issuer, login)
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/`))
    await expect(userMenuButton(page, 'Bruno Beta')).toBeVisible()
  })

  test('an email owned by a local account is refused with a clear message', async ({ page }) => {
    const local = await newUser(admin)
    const login = `copycat-${uniqueId()}`
    alpha.accounts.set(login, { email: local.email })
    await page.goto(`${server.url}/auth/login`)
    await page.getByRole('link', { name: 'Alpha ID' }).click()
    await signInAtProvider(page, alpha.issuer, login)
    await expect(page).toHaveURL(`${server.url}/auth/login?error=oidc_local_account`)
    await expect(page.getByRole('alert')).toHaveText(
      'A local account already uses this email address. Sign in with its password instead.',
    )
  })
})
