import {
  type ApiClient,
  appRoutes,
  integrationAliasRoutes,
  integrationMatcherRoutes,
  integrationRoutes,
  keyRoutes,
  type Project,
  repositoryRoutes,
  templateRoutes,
} from '@flagman/contract'
import { type APIRequestContext, type Locator, type Page } from '@playwright/test'
import {
  addMember,
  dialog,
  expect,
  expectAccessible,
  newProject,
  newUser,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'

const SECRET = 'e2e-webhook-token'

/** Picks an option of a select (MUI renders it as a combobox with a listbox). */
async function choose(form: Locator, page: Page, label: string | RegExp, option: string) {
  await form.getByRole('combobox', { name: label }).click()
  await page.getByRole('option', { name: option, exact: true }).click()
}

function section(page: Page, title: string): Locator {
  return page.getByRole('region', { name: title })
}

/**
 * An alias URL names the server's public host; deliveries from the test go to the address
 * the test server listens on.
 */
function deliveryUrl(baseURL: string, aliasUrl: string): string {
  return `${baseURL}${new URL(aliasUrl).pathname}`
}

async function deliver(
  request: APIRequestContext,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await request.post(url, { data: body, headers })
  expect(response.status(), `delivery to ${url}`).toBe(204)
}

interface Setup {
  project: Project
  templateId: number
  secretKeyId: number
}

/** A project with a bash template from a local repository and a login_password secret key. */
async function projectWithTemplate(api: ApiClient, repoPath: string, name: string): Promise<Setup> {
  await api.call(appRoutes.setActive, { params: { app_id: 'bash' }, body: { active: true } })
  const project = await newProject(api, name)
  const params = { project_id: project.id }
  const none = await api.call(keyRoutes.create, {
    params,
    body: { name: 'none', type: 'none', project_id: project.id },
  })
  const secret = await api.call(keyRoutes.create, {
    params,
    body: {
      name: 'webhook secret',
      type: 'login_password',
      project_id: project.id,
      login_password: { login: '', password: SECRET },
    },
  })
  const repository = await api.call(repositoryRoutes.create, {
    params,
    body: {
      name: 'scripts',
      git_url: repoPath,
      git_branch: '',
      ssh_key_id: none.id,
      project_id: project.id,
    },
  })
  const template = await api.call(templateRoutes.create, {
    params,
    body: {
      name: 'On push',
      app: 'bash',
      playbook: 'hook.sh',
      repository_id: repository.id,
      project_id: project.id,
    },
  })
  return { project, templateId: template.id, secretKeyId: secret.id }
}

test.describe('integrations', () => {
  let repo: { path: string; dispose(): void }
  test.beforeAll(() => {
    repo = gitRepository({ 'hook.sh': 'echo "webhook delivered"\n' })
  })
  test.afterAll(() => repo.dispose())

  test('an owner sets up an integration and sees its deliveries', async ({
    page,
    context,
    request,
    baseURL,
    adminApi,
  }) => {
    if (!baseURL) throw new Error('baseURL is not configured')
    const { project } = await projectWithTemplate(adminApi, repo.path, `Hooks ${uniqueId()}`)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await signIn(page)

    await page.goto(`/project/${project.id}/integrations`)
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
    await expect(page.getByText('No integrations yet')).toBeVisible()
    await expectAccessible(page)

    // The empty state offers the same action as the header.
    await page.getByRole('main').getByRole('button', { name: 'New integration' }).last().click()
    const form = dialog(page, 'New integration')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('Name is required')).toBeVisible()
    await expect(form.getByText('Template is required')).toBeVisible()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('push hook')
    await choose(form, page, /^Template/, 'On push')
    await choose(form, page, /^Authentication method/, 'Token')
    await form.getByRole('textbox', { name: 'Auth header' }).fill('X-Token')
    await choose(form, page, /^Secret key/, 'webhook secret')
    await expectAccessible(page)
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Integration push hook created')).toBeVisible()
    await expect(form).toBeHidden()

    // The new integration's page.
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/integrations/\\d+$`))
    await expect(page.getByRole('heading', { level: 1 })).toContainText('push hook')
    await expect(page.getByRole('link', { name: 'On push' })).toBeVisible()
    await expect(page.getByText('Token', { exact: true })).toBeVisible()
    const aliases = section(page, 'Alias URLs')
    await expect(aliases.getByText('No aliases yet.')).toBeVisible()
    await expect(section(page, 'Matchers').getByText('No matchers yet.')).toBeVisible()
    await expect(
      section(page, 'Extracted values').getByText('No extracted values yet.'),
    ).toBeVisible()
    await expect(section(page, 'Delivery log').getByText('No deliveries yet.')).toBeVisible()
    await expectAccessible(page)

    // An alias, and its URL copied.
    await aliases.getByRole('button', { name: 'Add alias' }).click()
    await expect(snackbar(page, 'Alias created')).toBeVisible()
    const urlText = aliases.locator('code')
    await expect(urlText).toHaveText(/\/api\/integrations\/[a-z0-9]{16}$/)
    const aliasUrl = (await urlText.textContent()) ?? ''
    await aliases.getByRole('button', { name: `Copy ${aliasUrl}` }).click()
    await expect(snackbar(page, 'The URL has been copied to the clipboard.')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(aliasUrl)

    // A matcher and an extracted value.
    await section(page, 'Matchers').getByRole('button', { name: 'Add matcher' }).click()
    const matcherForm = dialog(page, 'New matcher')
    await matcherForm.getByRole('button', { name: 'Create' }).click()
    await expect(matcherForm.getByText('Match source is required')).toBeVisible()
    await matcherForm.getByRole('textbox', { name: 'Name', exact: true }).fill('main branch')
    await choose(matcherForm, page, /^Match source/, 'Body')
    await matcherForm.getByRole('textbox', { name: 'Key' }).fill('ref')
    await matcherForm.getByRole('textbox', { name: 'Value' }).fill('refs/heads/main')
    await expectAccessible(page)
    await matcherForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Matcher main branch created')).toBeVisible()
    await expect(page.getByRole('table', { name: 'Matchers' })).toContainText('refs/heads/main')

    await section(page, 'Extracted values').getByRole('button', { name: 'Add value' }).click()
    const valueForm = dialog(page, 'New extracted value')
    await valueForm.getByRole('textbox', { name: 'Name', exact: true }).fill('git ref')
    await choose(valueForm, page, /^Value source/, 'Body')
    await valueForm.getByRole('textbox', { name: 'Key' }).fill('ref')
    await valueForm.getByRole('textbox', { name: 'Variable' }).fill('git-ref')
    await valueForm.getByRole('button', { name: 'Create' }).click()
    await expect(valueForm.getByText(/^Variable must start with a letter/)).toBeVisible()
    await valueForm.getByRole('textbox', { name: 'Variable' }).fill('GIT_REF')
    await expectAccessible(page)
    await valueForm.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, 'Extracted value git ref created')).toBeVisible()
    await expect(page.getByRole('table', { name: 'Extracted values' })).toContainText('GIT_REF')

    // Deliveries to the alias: a wrong token is refused, the right one starts a task.
    const url = deliveryUrl(baseURL, aliasUrl)
    await deliver(request, url, { ref: 'refs/heads/main' }, { 'X-Token': 'wrong' })
    await deliver(request, url, { ref: 'refs/heads/main' }, { 'X-Token': SECRET })
    const log = page.getByRole('table', { name: 'Delivery log' })
    await expect(log.getByRole('row')).toHaveCount(3)
    await expect(log.getByRole('row').nth(1)).toContainText('Task started')
    await expect(log.getByRole('row').nth(2)).toContainText('Authentication failed')
    await expect(log.getByRole('row').nth(2)).toContainText('—')
    const taskLink = log.getByRole('link', { name: /^Task #\d+$/ })
    await expect(taskLink).toHaveCount(1)
    await expectAccessible(page)
    await taskLink.click()
    await expect(page).toHaveURL(/\?t=\d+$/)
    const taskLog = page.getByRole('dialog')
    await expect(taskLog.getByText('webhook delivered')).toBeVisible({ timeout: 30_000 })
    await page.keyboard.press('Escape')
    await expect(taskLog).toBeHidden()

    // The global alias: the integration is reached through the project's aliases only.
    await page.getByRole('switch', { name: 'Global alias' }).click()
    await expect(snackbar(page, 'Global alias turned on')).toBeVisible()
    await expect(aliases.getByText(/reached through the project-level aliases only/)).toBeVisible()

    // The alias is deleted after a confirmation.
    await aliases.getByRole('button', { name: `Delete ${aliasUrl}` }).click()
    const confirm = dialog(page, 'Delete alias?')
    await expectAccessible(page)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Alias deleted')).toBeVisible()
    await expect(aliases.getByText('No aliases yet.')).toBeVisible()

    // A project-level alias, made on the list page.
    await page.getByRole('link', { name: 'Integrations' }).first().click()
    await expect(page.getByRole('heading', { level: 1, name: 'Integrations' })).toBeVisible()
    const projectAliases = section(page, 'Project aliases')
    await expect(projectAliases.getByText('No aliases yet.')).toBeVisible()
    await projectAliases.getByRole('button', { name: 'Add alias' }).click()
    await expect(snackbar(page, 'Alias created')).toBeVisible()
    const projectUrl = (await projectAliases.locator('code').textContent()) ?? ''
    expect(projectUrl).toMatch(/\/api\/integrations\/[a-z0-9]{16}$/)
    await expectAccessible(page)
    const projectDelivery = deliveryUrl(baseURL, projectUrl)
    await deliver(request, projectDelivery, { ref: 'refs/heads/dev' }, { 'X-Token': SECRET })
    await deliver(request, projectDelivery, { ref: 'refs/heads/main' }, { 'X-Token': SECRET })

    await page.getByRole('link', { name: 'push hook', exact: true }).click()
    await expect(log.getByRole('row')).toHaveCount(5)
    await expect(log.getByRole('row').nth(1)).toContainText('Task started')
    await expect(log.getByRole('row').nth(2)).toContainText('No matcher matched')
    await expect(log.getByRole('link', { name: /^Task #\d+$/ })).toHaveCount(2)
  })

  test('deletes an integration after a confirmation; its template shows who uses it', async ({
    page,
    adminApi,
  }) => {
    const { project, templateId } = await projectWithTemplate(
      adminApi,
      repo.path,
      `Hook Refs ${uniqueId()}`,
    )
    await adminApi.call(integrationRoutes.create, {
      params: { project_id: project.id },
      body: { name: 'release hook', project_id: project.id, template_id: templateId },
    })
    await signIn(page)

    // The template is used by the integration: the references dialog instead of deleting.
    await page.goto(`/project/${project.id}/templates/${templateId}/details`)
    await page.getByRole('button', { name: 'Delete' }).last().click()
    const references = dialog(page, "Can't delete the template")
    await expect(references.getByText('release hook')).toBeVisible()
    await expectAccessible(page)
    await references.getByRole('button', { name: 'Close' }).click()
    await expect(references).toBeHidden()

    await page.goto(`/project/${project.id}/integrations`)
    const table = page.getByRole('table', { name: 'Integrations' })
    await expect(table.getByRole('link', { name: 'On push' })).toBeVisible()
    await table.getByRole('button', { name: 'Delete release hook' }).click()
    const confirm = dialog(page, 'Delete integration?')
    await expect(confirm).toContainText('release hook')
    await expectAccessible(page)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, 'Integration release hook deleted')).toBeVisible()
    await expect(page.getByText('No integrations yet')).toBeVisible()
  })

  test('a member without the resources permission only reads', async ({ page, adminApi }) => {
    const { project, templateId } = await projectWithTemplate(
      adminApi,
      repo.path,
      `Hook Reader ${uniqueId()}`,
    )
    const params = { project_id: project.id }
    const integration = await adminApi.call(integrationRoutes.create, {
      params,
      body: { name: 'watched hook', project_id: project.id, template_id: templateId },
    })
    const itemParams = { ...params, integration_id: integration.id }
    const alias = await adminApi.call(integrationAliasRoutes.create, { params: itemParams })
    await adminApi.call(integrationMatcherRoutes.create, {
      params: itemParams,
      body: { name: 'pushes', match_type: 'header', key: 'X-Event', value: 'push' },
    })
    const reader = await newUser(adminApi)
    await addMember(adminApi, project, reader, 'task_runner')
    await signIn(page, reader.username, reader.password)

    await page.goto(`/project/${project.id}/integrations`)
    const table = page.getByRole('table', { name: 'Integrations' })
    await expect(table.getByRole('link', { name: 'watched hook' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'New integration' })).toHaveCount(0)
    await expect(table.getByRole('button')).toHaveCount(0)
    await expect(
      section(page, 'Project aliases').getByRole('button', { name: 'Add alias' }),
    ).toHaveCount(0)
    await expectAccessible(page)

    await table.getByRole('cell', { name: 'watched hook' }).click()
    await expect(page).toHaveURL(new RegExp(`/integrations/${integration.id}$`))
    await expect(page.getByRole('heading', { level: 1 })).toContainText('watched hook')
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0)
    await expect(page.getByRole('switch', { name: 'Global alias' })).toBeDisabled()
    const aliases = section(page, 'Alias URLs')
    await expect(aliases.locator('code')).toHaveText(alias.url)
    await expect(aliases.getByRole('button', { name: `Copy ${alias.url}` })).toBeVisible()
    await expect(aliases.getByRole('button', { name: 'Add alias' })).toHaveCount(0)
    await expect(aliases.getByRole('button', { name: `Delete ${alias.url}` })).toHaveCount(0)
    await expect(page.getByRole('table', { name: 'Matchers' })).toContainText('pushes')
    await expect(
      section(page, 'Matchers').getByRole('button', { name: /Add|Edit|Delete/ }),
    ).toHaveCount(0)
    await expectAccessible(page)
  })
})
