import { type Page } from '@playwright/test'
import {
  expect,
  newMemberWithProjects,
  projectPicker,
  settleAnimations,
  signIn,
  signInForm,
  test,
  uniqueId,
} from '../support/fixtures.js'

/** How far the page can be scrolled sideways, in CSS pixels (0 when it fits the screen). */
function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) -
      document.documentElement.clientWidth,
  )
}

test.describe('small screens', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true })

  test('at 375 px the drawer opens from a menu button and nothing scrolls sideways', async ({
    page,
    adminApi,
  }) => {
    const name = `Mobile Project With A Rather Long Name ${uniqueId()}`
    const { user, projects } = await newMemberWithProjects(adminApi, [name])
    const project = projects[0]!

    await page.goto('/auth/login')
    await expect(signInForm(page).username).toBeVisible()
    expect(await horizontalOverflow(page)).toBe(0)

    await signIn(page, user.username, user.password)
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    expect(await horizontalOverflow(page)).toBe(0)

    // The drawer is hidden until the menu button opens it.
    const picker = projectPicker(page)
    await expect(picker).toBeHidden()
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' })
    await menuButton.click()
    await expect(picker).toBeVisible()
    await expect(picker).toContainText(name)
    await settleAnimations(page)
    const box = await page.locator('.MuiDrawer-paper').boundingBox()
    expect(box?.width).toBeCloseTo(260, 0)

    // Choosing a page closes it again.
    await page.getByRole('link', { name: 'Team', exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/team$`))
    await expect(picker).toBeHidden()
    await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
    expect(await horizontalOverflow(page)).toBe(0)

    // Escape closes it without navigating.
    await menuButton.click()
    await expect(picker).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(picker).toBeHidden()

    await page.goto(`/project/${project.id}/settings`)
    await expect(page.getByRole('region', { name: 'General' })).toBeVisible()
    expect(await horizontalOverflow(page)).toBe(0)
  })

  test('signing in works with the keyboard alone', async ({ page, adminApi }) => {
    const name = `Keyboard ${uniqueId()}`
    const { user, projects } = await newMemberWithProjects(adminApi, [name])
    await page.goto('/auth/login')
    const form = signInForm(page)

    // The username field has the focus when the page opens.
    await expect(form.username).toBeFocused()
    await page.keyboard.type(user.username)
    await page.keyboard.press('Tab')
    await expect(form.password).toBeFocused()
    await page.keyboard.type(user.password)
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused()
    await page.keyboard.press('Tab')
    await expect(form.submit).toBeFocused()
    await page.keyboard.press('Enter')

    await expect(page).toHaveURL(new RegExp(`/project/${projects[0]!.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()

    // The drawer opens from the keyboard as well, and takes the focus.
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' })
    await page.keyboard.press('Tab')
    await expect(menuButton).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(projectPicker(page)).toBeVisible()
    await expect(page.locator('.MuiDrawer-paper')).toContainText(name)
    await page.keyboard.press('Escape')
    await expect(menuButton).toBeFocused()
  })
})

test('signing in works with the keyboard alone on a wide screen', async ({ page, adminApi }) => {
  const { user, projects } = await newMemberWithProjects(adminApi, [`Wide ${uniqueId()}`])
  await page.goto('/auth/login')
  await expect(signInForm(page).username).toBeFocused()
  await page.keyboard.type(user.username)
  await page.keyboard.press('Tab')
  await page.keyboard.type(user.password)
  await page.keyboard.press('Enter')
  await expect(page).toHaveURL(new RegExp(`/project/${projects[0]!.id}/history$`))
})
