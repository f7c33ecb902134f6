import { readFileSync } from 'node:fs'
import { getInfo, projectRunnerRoutes } from '@flagman/contract'
import { type Locator, type Page } from '@playwright/test'
import {
  dialog,
  expect,
  expectAccessible,
  newProject,
  openUserMenu,
  saveScreenshot,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'
import { ADMIN } from '../support/constants.js'

/** The row of the runners table showing this runner. */
function runnerRow(page: Page, name: string): Locator {
  return page
    .getByRole('table', { name: 'Runners' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name, exact: true }) })
}

/**
 * Checks the one-time dialog of a new runner (token, key cut to 90 characters, download,
 * start command) and closes it; returns the token it showed.
 */
async function checkSecretDialog(
  page: Page,
  name: string,
  options: { server: string; tags?: string },
): Promise<string> {
  const secret = dialog(page, `Runner ${name} created`)
  await expect(secret).toBeVisible()
  await expect(secret.getByText('they will not be shown again')).toBeVisible()
  const token = await secret.getByRole('textbox', { name: 'Runner token' }).inputValue()
  expect(token.length).toBeGreaterThan(10)

  const shownKey = await secret.getByRole('textbox', { name: 'Private key' }).inputValue()
  expect(shownKey).toHaveLength(91)
  expect(shownKey.endsWith('…')).toBe(true)
  expect(shownKey).toMatch(/^-----BEGIN /)

  const download = page.waitForEvent('download')
  await secret.getByRole('button', { name: 'Download config.runner.key' }).click()
  const file = await download
  expect(file.suggestedFilename()).toBe('config.runner.key')
  const saved = readFileSync(await file.path(), 'utf8')
  expect(saved.startsWith(shownKey.slice(0, 90))).toBe(true)
  expect(saved).toMatch(/-----END [A-Z ]*PRIVATE KEY-----\s*$/)

  const command = await secret
    .getByRole('textbox', { name: 'Command to start the runner' })
    .inputValue()
  expect(command).toBe(
    `flagman runner start --server ${options.server} --token ${token} ` +
      `--private-key-file config.runner.key${options.tags ? ` --tags ${options.tags}` : ''}`,
  )
  await secret.getByRole('button', { name: 'Copy the token' }).click()
  await expect(snackbar(page, 'The token has been copied to the clipboard.')).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token)
  await expectAccessible(page)
  await saveScreenshot(page, 'runner-created')

  // Only the explicit button closes it: the secrets would be lost otherwise.
  await page.keyboard.press('Escape')
  await expect(secret).toBeVisible()
  await secret.getByRole('button', { name: 'I have saved them' }).click()
  await expect(secret).toBeHidden()
  return token
}

test.describe('runners', () => {
  test('an admin creates, edits, switches off and deletes a global runner', async ({
    page,
    context,
    baseURL,
    adminApi,
  }) => {
    if (!baseURL) throw new Error('baseURL is not configured')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    const info = await adminApi.call(getInfo, {})
    const name = `global ${uniqueId()}`
    await signIn(page)

    await page.goto('/runners')
    await expect(page.getByRole('heading', { level: 1, name: 'Global runners' })).toBeVisible()
    await expectAccessible(page)

    await page.getByRole('button', { name: 'New runner' }).first().click()
    const form = dialog(page, 'New runner')
    await form.getByRole('textbox', { name: 'Tags' }).fill('linux, bad tag')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('Name is required')).toBeVisible()
    await expect(form.getByText(/^Tags may hold only letters/)).toBeVisible()
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await form.getByRole('textbox', { name: 'Tags' }).fill('linux, e2e')
    await expectAccessible(page)
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form).toBeHidden()

    await checkSecretDialog(page, name, { server: info.web_host, tags: 'linux,e2e' })

    // Never started: offline, never connected, no limit, its tags.
    const row = runnerRow(page, name)
    await expect(row).toContainText('Offline')
    await expect(row).toContainText('Never connected')
    await expect(row).toContainText('Unlimited')
    await expect(row).toContainText('linux')
    await expect(row).toContainText('e2e')
    await expectAccessible(page)
    await saveScreenshot(page, 'runners')

    // Runners are in use now: the user menu (in a project's drawer) leads to them.
    const project = await newProject(adminApi, `Menu ${uniqueId()}`)
    await page.goto(`/project/${project.id}/history`)
    const menu = await openUserMenu(page, ADMIN.name)
    await menu.getByRole('menuitem', { name: 'Runners' }).click()
    await expect(page).toHaveURL(/\/runners$/)

    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = dialog(page, 'Edit runner')
    await expect(edit.getByRole('textbox', { name: 'Tags' })).toHaveValue('linux, e2e')
    await edit.getByRole('textbox', { name: 'Max parallel tasks' }).fill('2')
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, `Runner ${name} saved`)).toBeVisible()
    await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible()

    const active = row.getByRole('switch', { name: `Active: ${name}` })
    await expect(active).toBeChecked()
    await active.click()
    await expect(active).not.toBeChecked()
    // Saved at once: still off when read again.
    await page.reload()
    await expect(runnerRow(page, name).getByRole('switch')).not.toBeChecked()

    await runnerRow(page, name)
      .getByRole('button', { name: `Delete ${name}` })
      .click()
    const confirm = dialog(page, 'Delete runner?')
    await expect(confirm).toContainText(name)
    await confirm.getByRole('button', { name: 'Delete' }).click()
    await expect(snackbar(page, `Runner ${name} deleted`)).toBeVisible()
    await expect(runnerRow(page, name)).toHaveCount(0)
  })

  test("a project runner is created from the project's Runners page", async ({
    page,
    context,
    baseURL,
    adminApi,
  }) => {
    if (!baseURL) throw new Error('baseURL is not configured')
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    const info = await adminApi.call(getInfo, {})
    const project = await newProject(adminApi, `Runners ${uniqueId()}`)
    await signIn(page)

    await page.goto(`/project/${project.id}/history`)
    await page
      .getByRole('navigation', { name: 'Project pages' })
      .getByRole('link', { name: 'Runners' })
      .click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/runners$`))
    await expect(page.getByRole('heading', { level: 1, name: 'Runners' })).toBeVisible()
    await expect(page.getByText('No runners yet')).toBeVisible()
    // Administrators also reach the global runners from here.
    await expect(page.getByRole('link', { name: 'Global runners' })).toBeVisible()
    await expectAccessible(page)

    // The empty state offers the same action as the header.
    await page.getByRole('main').getByRole('button', { name: 'New runner' }).last().click()
    const form = dialog(page, 'New runner')
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('edge box')
    await form.getByRole('button', { name: 'Create' }).click()
    await checkSecretDialog(page, 'edge box', { server: info.web_host })

    await expect(runnerRow(page, 'edge box')).toContainText('Never connected')
    await expectAccessible(page)
    const stored = await adminApi.call(projectRunnerRoutes.list, {
      params: { project_id: project.id },
    })
    expect(stored.map((runner) => [runner.name, runner.project_id])).toEqual([
      ['edge box', project.id],
    ])
  })
})
