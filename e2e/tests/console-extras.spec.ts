import { readFile } from 'node:fs/promises'
import { environmentRoutes, ProjectBackup } from '@flagman/contract'
import { ADMIN } from '../support/constants.js'
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

test.describe('subscription details', () => {
  test('the community edition includes every feature and needs no key', async ({ page }) => {
    await signIn(page)
    const menu = await openUserMenu(page, ADMIN.name)
    await menu.getByRole('menuitem', { name: 'Subscription details' }).click()
    const details = dialog(page, 'Subscription details')
    await expect(details.getByText('Community edition — all features included')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'subscription-details')

    await details.getByRole('button', { name: 'Activate' }).click()
    await expect(details.getByText('Key is required')).toBeVisible()

    await details.getByRole('textbox', { name: 'Subscription key' }).fill('ABCD-1234')
    await details.getByRole('button', { name: 'Activate' }).click()
    await expect(details.getByRole('alert')).toContainText('no subscription key is needed')
    // The dialog stays open after an answer, as the subscription form does.
    await expect(details).toBeVisible()
    await expectAccessible(page)
    await details.getByRole('button', { name: 'Close' }).click()
    await expect(details).toBeHidden()
    await expect(page.getByText(/premium/i)).toHaveCount(0)
  })
})

test.describe('install and news', () => {
  test('the install tabs show, copy and download the ways to run Flagman', async ({
    page,
    context,
    baseURL,
    adminApi,
  }) => {
    const project = await newProject(adminApi, `Install ${uniqueId()}`)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await signIn(page)
    await page.goto(`/project/${project.id}/install`)
    await expect(page.getByRole('tab', { name: 'Download and Install' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    const assets = page.getByRole('table', { name: /^Ways to install Flagman / })
    await expect(assets).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'install-artifacts')

    await assets.getByRole('button', { name: 'Install From the repository' }).click()
    const guide = page.getByRole('dialog', { name: /^Install From the repository/ })
    await expect(guide.getByText('npm ci && npm run build && bin/flagman server')).toBeVisible()
    await expectAccessible(page)
    await guide.getByRole('button', { name: 'Copy Command' }).click()
    await expect(snackbar(page, 'The command has been copied to the clipboard.')).toBeVisible()
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      'npm ci && npm run build && bin/flagman server',
    )
    await guide.getByRole('button', { name: 'Close' }).click()

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      assets.getByRole('button', { name: 'Download flagman.service (systemd service)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('flagman.service')
    const unit = await readFile((await download.path())!, 'utf8')
    expect(unit).toContain('ExecStart=/usr/bin/node /opt/flagman/bin/flagman server')

    await page.getByRole('tab', { name: 'Images' }).click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/install/images$`))
    await expect(page.getByLabel('Build the image', { exact: true })).toContainText(
      'docker build -t flagman:',
    )
    await expectAccessible(page)
    await saveScreenshot(page, 'install-images')

    await page.getByRole('tab', { name: 'Configurations' }).click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/install/configs$`))
    const nginx = page.getByRole('region', { name: 'nginx reverse proxy' })
    await expect(nginx.getByLabel('flagman.conf', { exact: true })).toContainText(
      'proxy_set_header Upgrade',
    )
    await expectAccessible(page)
    await saveScreenshot(page, 'install-configs')
  })

  test('news posts open with read more, in German too', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `News ${uniqueId()}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/news`)
    const posts = page.getByRole('article')
    await expect(posts).toHaveCount(3)
    const first = posts.first()
    await expect(first.getByText(/up to three tries/)).toBeHidden()
    await first.getByRole('button', { name: 'Read more' }).click()
    await expect(first.getByText(/up to three tries/)).toBeVisible()
    await expect(first.getByRole('button', { name: 'Show less' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'news')

    await page.evaluate(() => localStorage.setItem('lang', 'de'))
    await page.reload()
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    await expect(page.getByRole('heading', { name: 'Neuigkeiten' })).toBeVisible()
    await page.getByRole('article').first().getByRole('button', { name: 'Weiterlesen' }).click()
    await expect(page.getByText(/mit bis zu drei Versuchen/)).toBeVisible()
    await expectAccessible(page)
    await page.evaluate(() => localStorage.removeItem('lang'))
  })
})

test.describe('project settings', () => {
  test('exports the project as a backup file', async ({ page, adminApi }) => {
    const name = `Backup ${uniqueId()}`
    const project = await newProject(adminApi, name)
    await signIn(page)
    await page.goto(`/project/${project.id}/settings`)
    const backup = page.getByRole('region', { name: 'Backup' })
    await expect(backup).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-settings-backup')

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Export backup' }).click(),
    ])
    await expect(snackbar(page, 'Project exported.')).toBeVisible()
    expect(download.suggestedFilename()).toMatch(
      new RegExp(`^project-${name.replace(/ /g, '-')}-\\d{4}-\\d{2}-\\d{2}\\.json$`),
    )
    const file = ProjectBackup.parse(JSON.parse(await readFile((await download.path())!, 'utf8')))
    expect(file.meta.name).toBe(name)
  })

  test('sends a test alert and says that no channel is configured', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Alerts ${uniqueId()}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/settings`)
    const alerts = page.getByRole('region', { name: 'Alerts' })
    await alerts.getByRole('button', { name: 'Send test alert' }).click()
    const results = dialog(page, 'Test alert')
    await expect(results.getByText('No alert channel is configured on the server')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-settings-test-alert')
    await results.getByRole('button', { name: 'Close' }).click()
    await expect(results).toBeHidden()
  })

  test('in German, the settings show the backup and alert sections', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Einstellungen ${uniqueId()}`)
    await signIn(page)
    await page.evaluate(() => localStorage.setItem('lang', 'de'))
    await page.goto(`/project/${project.id}/settings`)
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
    const backup = page.getByRole('region', { name: 'Sicherung' })
    await expect(backup.getByRole('button', { name: 'Sicherung exportieren' })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Testbenachrichtigung senden' })).toBeVisible()
    await expectAccessible(page)
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      backup.getByRole('button', { name: 'Sicherung exportieren' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^project-Einstellungen-/)
    await expect(snackbar(page, 'Projekt exportiert.')).toBeVisible()
    await page.evaluate(() => localStorage.removeItem('lang'))
  })
})

test.describe('environment Docker image', () => {
  test('is chosen in the form, stored and shown in the list', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Images ${uniqueId()}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/environment`)
    await page.getByRole('button', { name: 'New environment' }).click()
    const form = dialog(page, 'New environment')
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('runner images')
    await form.getByRole('combobox', { name: 'Docker image' }).click()
    const options = page.getByRole('listbox').getByRole('option')
    await expect(options).toHaveCount(1 + 10 + 9)
    await expectAccessible(page)
    await page.getByRole('option', { name: 'nodejs-runner:v2.0.10' }).click()
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form).toBeHidden()

    await expect(page.getByText('Docker image: nodejs-runner:v2.0.10')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'environment-image')
    const stored = (
      await adminApi.call(environmentRoutes.list, { params: { project_id: project.id } })
    ).find((environment) => environment.name === 'runner images')
    expect(stored?.image).toBe('nodejs-runner:v2.0.10')
  })
})
