import { enableTotp, getCurrentUser, getUser, type ApiClient } from '@flagman/contract'
import type { Page } from '@playwright/test'
import { TOTP, URI } from 'otpauth'
import {
  addMember,
  dialog,
  expect,
  newProject,
  newUser,
  openUserMenu,
  signInForm,
  snackbar,
  test,
  uniqueId,
  type TestUser,
} from '../support/fixtures.js'
import { apiSignInAt, startOwnServer, type OwnServer } from '../support/own-server.js'

/*
 * Two-factor sign-in needs server settings the shared browser-test server does not have, so
 * these journeys run against a server of their own, with FLAGMAN_TOTP_ENABLED and
 * FLAGMAN_TOTP_ALLOW_RECOVERY on, on a fresh SQLite database and a free port.
 */

const ADMIN = { login: 'admin', password: 'totp-admin-password', email: 'admin@totp.test' }

/** The code an authenticator app would show now. */
function codeOf(otpauthUrl: string): string {
  const otp = URI.parse(otpauthUrl)
  if (!(otp instanceof TOTP)) throw new Error('not a TOTP address')
  return otp.generate()
}

/** Waits, when the current 30-second step is about to end, until the next one starts. */
async function awayFromStepEnd(): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000)
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 200))
}

let server: OwnServer
let admin: ApiClient

test.beforeAll(async () => {
  server = await startOwnServer({
    admin: ADMIN,
    settings: { FLAGMAN_TOTP_ENABLED: 'true', FLAGMAN_TOTP_ALLOW_RECOVERY: 'true' },
  })
  admin = await apiSignInAt(server.url, ADMIN.login, ADMIN.password)
})

test.afterAll(async () => {
  await server?.stop()
})

async function memberWithProject(): Promise<TestUser> {
  const user = await newUser(admin, { name: `Tess ${uniqueId()}` })
  const project = await newProject(admin, `Two-factor ${uniqueId()}`)
  await addMember(admin, project, user, 'owner')
  return user
}

async function submitPassword(page: Page, user: TestUser): Promise<void> {
  await page.goto(`${server.url}/auth/login`)
  const form = signInForm(page)
  await form.username.fill(user.username)
  await form.password.fill(user.password)
  await form.submit.click()
}

async function signOut(page: Page, name: string): Promise<void> {
  const menu = await openUserMenu(page, name)
  await menu.getByRole('menuitem', { name: 'Sign out' }).click()
  await expect(page).toHaveURL(/\/auth\/login$/)
}

test.describe('two-factor sign-in', () => {
  test('a user enables it, then signs in with a code and with the recovery code', async ({
    page,
  }) => {
    const user = await memberWithProject()
    await submitPassword(page, user)
    await expect(page).toHaveURL(/\/project\/\d+/)

    // Enable: the QR code, the otpauth:// address and the recovery code are shown once.
    let menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'Edit account' }).click()
    let account = dialog(page, 'Edit account')
    await expect(
      account.getByText('Two-factor authentication is off.', { exact: false }),
    ).toBeVisible()
    await account.getByRole('button', { name: 'Enable two-factor' }).click()
    await expect(snackbar(page, 'Two-factor authentication enabled')).toBeVisible()
    const qr = account.getByRole('img', { name: 'QR code for the authenticator app' })
    await expect(qr).toBeVisible()
    await expect
      .poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0)
    const address = await account
      .getByRole('textbox', { name: 'Authenticator address' })
      .inputValue()
    expect(address).toMatch(/^otpauth:\/\/totp\//)
    const recoveryCode = await account.getByRole('textbox', { name: 'Recovery code' }).inputValue()
    expect(recoveryCode).toMatch(/^[A-Z2-7]{16}$/)
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await account.getByRole('button', { name: 'Copy the recovery code' }).click()
    await expect(
      snackbar(page, 'The recovery code has been copied to your clipboard.'),
    ).toBeVisible()
    await account.getByRole('button', { name: 'Cancel' }).click()
    await expect(account).toBeHidden()
    await signOut(page, user.name)

    // The password alone now leads to the code screen; a wrong code is refused.
    await awayFromStepEnd()
    await submitPassword(page, user)
    await expect(page).toHaveURL(/\/auth\/verify$/)
    const code = page.getByRole('textbox', { name: 'Code' })
    const right = codeOf(address)
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0')
    await code.fill(wrong)
    await expect(page.getByRole('alert')).toHaveText('Incorrect code')
    await code.fill(right)
    await expect(page).toHaveURL(/\/project\/\d+/)
    await signOut(page, user.name)

    // The code screen links to the recovery code, which signs in and turns the second factor off.
    await submitPassword(page, user)
    await expect(page).toHaveURL(/\/auth\/verify$/)
    await page.getByRole('link', { name: 'Use a recovery code' }).click()
    await expect(page).toHaveURL(/\/auth\/recovery$/)
    await page.getByRole('textbox', { name: 'Recovery code' }).fill(recoveryCode)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await expect(page).toHaveURL(/\/project\/\d+/)
    menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'Edit account' }).click()
    account = dialog(page, 'Edit account')
    await expect(
      account.getByText('Two-factor authentication is off.', { exact: false }),
    ).toBeVisible()
    const me = await admin.call(getUser, { params: { user_id: user.id } })
    expect(me.totp).toBeUndefined()
  })

  test('the code screen signs out back to the sign-in page', async ({ page }) => {
    const user = await memberWithProject()
    const own = await apiSignInAt(server.url, user.username, user.password)
    await own.call(enableTotp, { params: { user_id: user.id } })
    await submitPassword(page, user)
    await expect(page).toHaveURL(/\/auth\/verify$/)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/auth\/login$/)
    await expect(signInForm(page).username).toBeVisible()
  })

  test('an administrator removes a user’s second factor from the users page', async ({ page }) => {
    const user = await memberWithProject()
    const own = await apiSignInAt(server.url, user.username, user.password)
    await own.call(enableTotp, { params: { user_id: user.id } })

    await page.goto(`${server.url}/auth/login`)
    const form = signInForm(page)
    await form.username.fill(ADMIN.login)
    await form.password.fill(ADMIN.password)
    await form.submit.click()
    await expect(page).not.toHaveURL(/\/auth\//)
    await page.goto(`${server.url}/users`)
    const row = page.getByRole('row').filter({ hasText: user.username })
    await row.getByRole('button', { name: `Remove two-factor of ${user.name}` }).click()
    const confirm = dialog(page, 'Remove two-factor?')
    await confirm.getByRole('button', { name: 'Remove' }).click()
    await expect(snackbar(page, `Two-factor authentication of ${user.name} removed`)).toBeVisible()
    await expect(
      row.getByRole('button', { name: `Remove two-factor of ${user.name}` }),
    ).toHaveCount(0)

    const again = await apiSignInAt(server.url, user.username, user.password)
    const me = await again.call(getCurrentUser)
    expect(me.totp).toBeUndefined()
  })
})
