import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { AxeBuilder } from '@axe-core/playwright'
import {
  addTeamMember,
  createApiClient,
  createProject,
  createUser,
  type ApiClient,
  type Project,
  type ProjectRole,
  type User,
} from '@flagman/contract'
import {
  expect,
  test as base,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test'
import { ADMIN, ARTIFACTS_DIR } from './constants.js'

/** Signs in through the API and returns a contract client carrying the session cookie. */
export async function apiAs(
  request: APIRequestContext,
  baseURL: string,
  login: string,
  password: string,
): Promise<ApiClient> {
  const response = await request.post(`${baseURL}/api/auth/login`, {
    data: { auth: login, password },
  })
  expect(response.status(), `sign-in as ${login}`).toBe(204)
  const cookie = /(?<!\w)semaphore=[^;]+/.exec(response.headers()['set-cookie'] ?? '')?.[0]
  if (!cookie) throw new Error('no session cookie')
  return createApiClient({ baseUrl: baseURL, headers: { Cookie: cookie } })
}

let sequence = 0

/**
 * A suffix no other test of this run (or of an earlier run on the same database) uses, so that
 * every test can create its own users and projects on the shared server.
 */
export function uniqueId(): string {
  sequence += 1
  return `${Date.now().toString(36)}${sequence.toString(36)}${Math.floor(Math.random() * 1296)
    .toString(36)
    .padStart(2, '0')}`
}

/** A user created for one test, with the password it signs in with. */
export interface TestUser extends User {
  password: string
}

/** Creates a user through the API as the administrator. */
export async function newUser(
  api: ApiClient,
  options: { admin?: boolean; name?: string } = {},
): Promise<TestUser> {
  const id = uniqueId()
  const password = `pw-${id}-secret`
  const user = await api.call(createUser, {
    body: {
      username: `user-${id}`,
      name: options.name ?? `Test User ${id}`,
      email: `user-${id}@example.test`,
      password,
      admin: options.admin ?? false,
    },
  })
  return { ...user, password }
}

/** Creates a project through the API; its creator becomes the owner. */
export function newProject(api: ApiClient, name: string): Promise<Project> {
  return api.call(createProject, { body: { name } })
}

/** Adds a user to a project's team. */
export async function addMember(
  api: ApiClient,
  project: Project,
  user: User,
  role: ProjectRole = 'owner',
): Promise<void> {
  await api.call(addTeamMember, {
    params: { project_id: project.id },
    body: { user_id: user.id, role },
  })
}

/**
 * A user who is not an administrator and belongs to new projects with these names (in that
 * order), as owner. Such a user sees only these projects, whatever else is on the server.
 */
export async function newMemberWithProjects(
  api: ApiClient,
  projectNames: readonly string[],
  options: { name?: string; role?: ProjectRole } = {},
): Promise<{ user: TestUser; projects: Project[] }> {
  const user = await newUser(api, { name: options.name })
  const projects: Project[] = []
  for (const name of projectNames) {
    const project = await newProject(api, name)
    await addMember(api, project, user, options.role ?? 'owner')
    projects.push(project)
  }
  return { user, projects }
}

/** The sign-in page's fields and button. */
export function signInForm(page: Page) {
  return {
    username: page.getByRole('textbox', { name: 'Username or email' }),
    password: page.getByRole('textbox', { name: 'Password', exact: true }),
    submit: page.getByRole('button', { name: 'Sign in', exact: true }),
  }
}

/** Signs the browser in through the sign-in page. */
export async function signIn(page: Page, login = ADMIN.login, password = ADMIN.password) {
  await page.goto('/auth/login')
  const form = signInForm(page)
  await form.username.fill(login)
  await form.password.fill(password)
  await form.submit.click()
  await expect(page).not.toHaveURL(/\/auth\/login/)
}

/** The button in the drawer that opens the signed-in user's menu. */
export function userMenuButton(page: Page, name: string): Locator {
  return page.getByRole('button', { name: `Account menu of ${name}` })
}

/** Opens the user menu of the drawer and returns it. */
export async function openUserMenu(page: Page, name: string): Promise<Locator> {
  await userMenuButton(page, name).click()
  const menu = page.getByRole('menu')
  await expect(menu).toBeVisible()
  return menu
}

/** The project picker at the top of the drawer. */
export function projectPicker(page: Page): Locator {
  return page.getByRole('button', {
    name: /^(Current project: .*\. Choose another project|Choose a project)$/,
  })
}

/** The message at the bottom of the page (snackbar) showing this text. */
export function snackbar(page: Page, text: string): Locator {
  return page.locator('.MuiSnackbar-root').filter({ hasText: text })
}

/** The open dialog with this title. */
export function dialog(page: Page, title: string): Locator {
  return page.getByRole('dialog', { name: title })
}

/** Saves a screenshot of a main screen as a test artifact. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const dir = fileURLToPath(ARTIFACTS_DIR)
  mkdirSync(dir, { recursive: true })
  await settleAnimations(page)
  await page.screenshot({ path: `${dir}${name}.png`, fullPage: true })
}

/** Waits until the page's finite CSS animations and transitions (dialogs, menus) have ended. */
export async function settleAnimations(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getTiming().iterations !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  )
}

/** Runs axe on the page (or a part of it) and fails on serious or critical violations. */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  await settleAnimations(page)
  let builder = new AxeBuilder({ page })
  if (include) builder = builder.include(include)
  const results = await builder.analyze()
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  // Lesser findings do not fail the test but are listed in the report.
  for (const v of results.violations.filter((item) => !bad.includes(item))) {
    test.info().annotations.push({
      type: `axe ${v.impact ?? 'finding'}`,
      description: `${v.id} on ${new URL(page.url()).pathname}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
    })
  }
  expect(
    bad.map((v) => ({
      rule: `${v.id}: ${v.help}`,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.html.slice(0, 200)}`),
    })),
    `axe violations on ${page.url()}`,
  ).toEqual([])
}

/** Tests with a contract client signed in as the server's administrator. */
export const test = base.extend<{ adminApi: ApiClient }>({
  adminApi: async ({ request, baseURL }, use) => {
    if (!baseURL) throw new Error('baseURL is not configured')
    await use(await apiAs(request, baseURL, ADMIN.login, ADMIN.password))
  },
})

export { expect }
