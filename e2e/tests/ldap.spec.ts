import { CurrentUser } from '@flagman/contract'
import type { Page } from '@playwright/test'
import { startSlapd, type Slapd } from '../../packages/server/test/support/slapd.js'
import { expect, newProject, signInForm, test } from '../support/fixtures.js'
import { apiSignInAt, startOwnServer, type OwnServer } from '../support/own-server.js'

/*
 * Sign-in with a directory account needs a directory and server settings the shared
 * browser-test server does not have: these journeys start Debian's slapd and a server of
 * their own with FLAGMAN_LDAP_* pointing at it, on a fresh SQLite database and a free port.
 */

const ADMIN = { login: 'admin', password: 'ldap-admin-password', email: 'admin@ldap.test' }
const ALICE = { uid: 'alice', password: 'alice-directory-pw', cn: 'Alice Liddell' }
/** The first project of a fresh database; the group rule names it by id. */
const PROJECT_ID = 1

let slapd: Slapd
let server: OwnServer

test.beforeAll(async () => {
  slapd = await startSlapd({
    users: [
      { uid: ALICE.uid, password: ALICE.password, mail: 'alice@directory.test', cn: ALICE.cn },
      { uid: 'nomail', password: 'nomail-directory-pw', cn: 'No Mail' },
    ],
    groups: [{ cn: 'developers', kind: 'names', members: [ALICE.uid] }],
  })
  server = await startOwnServer({
    admin: ADMIN,
    settings: {
      FLAGMAN_LDAP_URL: slapd.url,
      FLAGMAN_LDAP_START_TLS: 'true',
      FLAGMAN_LDAP_CA_FILE: slapd.caFile,
      FLAGMAN_LDAP_BIND_DN: slapd.bindDn,
      FLAGMAN_LDAP_BIND_PASSWORD: slapd.bindPassword,
      FLAGMAN_LDAP_SEARCH_BASE: slapd.peopleDn,
      FLAGMAN_LDAP_GROUP_ROLES: JSON.stringify([
        { group: slapd.groupDn('developers'), project_id: PROJECT_ID, role: 'manager' },
      ]),
    },
  })
  const admin = await apiSignInAt(server.url, ADMIN.login, ADMIN.password)
  const project = await newProject(admin, 'Directory apps')
  expect(project.id).toBe(PROJECT_ID)
})

test.afterAll(async () => {
  await server?.stop()
  await slapd?.stop()
})

async function submit(page: Page, login: string, password: string): Promise<void> {
  await page.goto(`${server.url}/auth/login`)
  const form = signInForm(page)
  await form.username.fill(login)
  await form.password.fill(password)
  await form.submit.click()
}

test.describe('LDAP sign-in', () => {
  test('a directory user signs in and lands in the project their group maps to', async ({
    page,
  }) => {
    await submit(page, ALICE.uid, 'not-the-password')
    await expect(page.getByRole('alert')).toHaveText('Incorrect login or password')

    await submit(page, ALICE.uid, ALICE.password)
    await expect(page).toHaveURL(new RegExp(`/project/${PROJECT_ID}(/|$)`))
    await expect(page.getByText('Directory apps').first()).toBeVisible()
    await expect(page.getByText('Manager').first()).toBeVisible()

    // The session belongs to the external user created from the directory entry.
    const user = await page.evaluate(async () => {
      const response = await fetch('/api/user')
      return (await response.json()) as unknown
    })
    expect(CurrentUser.parse(user)).toMatchObject({
      username: ALICE.uid,
      name: ALICE.cn,
      external: true,
    })
  })

  test('a directory entry Flagman can not use gets a clear message on the sign-in page', async ({
    page,
  }) => {
    await submit(page, 'nomail', 'nomail-directory-pw')
    await expect(page.getByRole('alert')).toContainText('no "mail" attribute')
    await expect(page).toHaveURL(/\/auth\/login$/)
  })
})
