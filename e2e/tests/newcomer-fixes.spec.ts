import { inventoryRoutes, keyRoutes } from '@flagman/contract'
import type { Page } from '@playwright/test'
import {
  dialog,
  expect,
  expectAccessible,
  newMemberWithProjects,
  newProject,
  signIn,
  signInForm,
  test,
  uniqueId,
} from '../support/fixtures.js'
import { ADMIN } from '../support/constants.js'

/** Shows the console in German from the next page load on, as the language menu would. */
async function useGerman(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.setItem('lang', 'de'))
  await page.reload()
}

test.describe('what trips a newcomer up', () => {
  test('the language menu offers all 15 languages as text, and the dark mode label switches', async ({
    page,
    adminApi,
  }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Langs ${uniqueId()}`])
    await signIn(page, user.username, user.password)

    await page.getByText('Dark mode', { exact: true }).click()
    await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked()
    await page.getByText('Dark mode', { exact: true }).click()
    await expect(page.getByRole('switch', { name: 'Dark mode' })).not.toBeChecked()

    await page.getByRole('button', { name: /^Language/ }).click()
    const items = page.getByRole('menu').getByRole('menuitem')
    await expect(items).toHaveCount(16)
    for (const name of ['日本語', '한국어', 'Nederlands', 'Українська', 'Deutsch']) {
      await expect(items.filter({ hasText: name })).toHaveCount(1)
    }
    const texts = await items.allTextContents()
    for (const text of texts) expect(text).not.toMatch(/\p{Regional_Indicator}|🌐/u)
    await expectAccessible(page, '[role="menu"]')

    await items.filter({ hasText: 'Nederlands' }).click()
    await expect(page.getByRole('switch', { name: 'Donkere modus' })).toBeVisible()
    await page.evaluate(() => localStorage.removeItem('lang'))
  })

  test('"Trouble signing in?" leaves the untouched username field without an error', async ({
    page,
  }) => {
    await page.goto('/auth/login')
    await expect(signInForm(page).username).toBeFocused()
    await page.getByRole('button', { name: /Trouble signing in/ }).click()
    await expect(page.getByRole('dialog')).toBeVisible()
    await page.getByRole('button', { name: 'Close' }).click()
    await expect(page.getByText('Username is required')).toHaveCount(0)
    // A sign-in attempt with empty fields still says what is missing.
    await signInForm(page).submit.click()
    await expect(page.getByText('Username is required')).toBeVisible()
  })

  test('a member opening /users is told the page is for administrators, in English and German', async ({
    page,
    adminApi,
  }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Guard ${uniqueId()}`])
    await signIn(page, user.username, user.password)
    await page.goto('/users')
    await expect(page.getByText('For administrators only')).toBeVisible()
    await expect(page).toHaveURL(/\/users$/)
    await expectAccessible(page)
    await useGerman(page)
    await expect(page.getByText('Nur für Administratoren')).toBeVisible()
  })

  test('the user dialog makes a sample password and refuses a short one', async ({ page }) => {
    await signIn(page)
    await page.goto('/users')
    await page.getByRole('button', { name: 'New user' }).first().click()
    const form = dialog(page, 'New user')
    const id = uniqueId()
    await form.getByLabel(/^Name/).fill(`Short ${id}`)
    await form.getByLabel(/^Username/).fill(`short-${id}`)
    await form.getByLabel(/^Email/).fill(`short-${id}@example.test`)
    await form.getByLabel(/^Password/).fill('abc12')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('Password must be at least 8 characters')).toBeVisible()

    await form.getByRole('button', { name: 'Generate a sample password' }).click()
    await expect(form.getByLabel(/^Password/)).toHaveValue(/^[A-Za-z0-9]{10}$/)
    await expectAccessible(page, '[role="dialog"]')
    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form).toBeHidden()
    // The success message sits at the bottom left, clear of a dialog's buttons.
    const message = page.locator('.MuiSnackbar-root').filter({ hasText: `Short ${id}` })
    await expect(message).toBeVisible()
    const box = await message.boundingBox()
    const width = page.viewportSize()?.width ?? 1280
    expect(box && box.x + box.width).toBeLessThan(width / 2 + 200)
  })

  test('inventories show a path only for files; activity reads alike, dates in the language', async ({
    page,
    adminApi,
  }) => {
    const project = await newProject(adminApi, `Newcomer ${uniqueId()}`)
    const key = await adminApi.call(keyRoutes.create, {
      params: { project_id: project.id },
      body: { name: 'none', type: 'none', project_id: project.id },
    })
    await adminApi.call(inventoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'inline',
        project_id: project.id,
        type: 'static',
        inventory: 'web1.example.com',
        ssh_key_id: key.id,
      },
    })
    await adminApi.call(inventoryRoutes.create, {
      params: { project_id: project.id },
      body: {
        name: 'from-file',
        project_id: project.id,
        type: 'file',
        inventory: 'inventories/production.ini',
        ssh_key_id: key.id,
      },
    })
    await signIn(page, ADMIN.login, ADMIN.password)
    await page.goto(`/project/${project.id}/inventory`)
    const inline = page.getByRole('row').filter({ hasText: 'inline' })
    await expect(inline).toBeVisible()
    await expect(inline).not.toContainText('web1.example.com')
    await expect(page.getByRole('row').filter({ hasText: 'from-file' })).toContainText(
      'inventories/production.ini',
    )
    await expectAccessible(page)

    await page.goto(`/project/${project.id}/activity`)
    const table = page.getByRole('table', { name: 'Activity' })
    await expect(table.getByText('Inventory inline created')).toBeVisible()
    await expect(table.getByText('Key none created')).toBeVisible()
    const year = new Date().getFullYear()
    await expect(table.getByRole('row').nth(1)).toContainText(String(year))
    await expectAccessible(page)

    await useGerman(page)
    const german = page.getByRole('table', { name: 'Aktivität' })
    await expect(german.getByText('Inventar inline erstellt')).toBeVisible()
    // German dates: day.month.year.
    await expect(german.getByRole('row').nth(1)).toContainText(
      new RegExp(`\\d{2}\\.\\d{2}\\.${year}`),
    )
    await expectAccessible(page)
  })
})
