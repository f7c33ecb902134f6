import {
  dialog,
  expect,
  expectAccessible,
  newMemberWithProjects,
  newProject,
  openUserMenu,
  saveScreenshot,
  signIn,
  signInForm,
  test,
  uniqueId,
} from '../support/fixtures.js'
import { ADMIN } from '../support/constants.js'

/**
 * Each main screen is checked with axe (no serious or critical violations) and saved as a
 * screenshot in e2e/artifacts.
 */
test.describe('main screens', () => {
  test('sign-in page and its help dialog', async ({ page }) => {
    await page.goto('/auth/login')
    await expect(signInForm(page).username).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'sign-in')

    await signInForm(page).submit.click()
    await expect(page.getByText('Username is required')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'sign-in-errors')

    await page.getByRole('button', { name: 'Trouble signing in?' }).click()
    const help = dialog(page, 'Trouble signing in?')
    await expect(help).toContainText('flagman user change-by-login')
    await expectAccessible(page)
    await saveScreenshot(page, 'sign-in-help')
  })

  test('project history, settings and team', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Screens ${uniqueId()}`)
    await signIn(page)

    await page.goto(`/project/${project.id}/history`)
    await expect(page.getByText('No tasks yet')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-history')

    await page.goto(`/project/${project.id}/settings`)
    await expect(page.getByRole('region', { name: 'Danger Zone' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-settings')

    const limit = page.getByRole('textbox', { name: 'Max number of parallel tasks' })
    await limit.fill('-1')
    await limit.blur()
    await expect(page.getByText('Must be 0 or greater')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-settings-invalid')

    await page.getByRole('button', { name: 'Delete project' }).click()
    await expect(dialog(page, 'Delete project?')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-delete-confirmation')
    await page.keyboard.press('Escape')

    await page.goto(`/project/${project.id}/team`)
    await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
    await expect(page.getByRole('cell', { name: ADMIN.name, exact: true })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-team')
  })

  test('new-project dialog and project picker', async ({ page, adminApi }) => {
    const project = await newProject(adminApi, `Dialog ${uniqueId()}`)
    await signIn(page)

    await page.goto(`/project/${project.id}/history`)
    await page.getByRole('button', { name: /^Current project: / }).click()
    await expect(page.getByRole('menuitem', { name: 'New project' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'project-picker')
    await page.keyboard.press('Escape')

    await page.goto(`/project/${project.id}/history?new_project=`)
    const form = dialog(page, 'New project')
    await expect(form).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'new-project-dialog')

    await form.getByRole('button', { name: 'Create' }).click()
    await expect(form.getByText('Project name is required')).toBeVisible()
    await expectAccessible(page)
  })

  test('users page and user dialogs', async ({ page, adminApi }) => {
    await newProject(adminApi, `Users ${uniqueId()}`)
    await signIn(page)
    await page.goto('/users')
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()
    await expect(page.getByRole('cell', { name: ADMIN.login, exact: true })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'users')

    await page.getByRole('button', { name: 'New user' }).click()
    const create = dialog(page, 'New user')
    await expect(create).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'user-new-dialog')

    await create.getByRole('button', { name: 'Create' }).click()
    await expect(create.getByText('Password is required')).toBeVisible()
    await expectAccessible(page)
    await create.getByRole('button', { name: 'Cancel' }).click()

    await page.getByRole('button', { name: `Edit ${ADMIN.name}` }).click()
    await expect(dialog(page, 'Edit user')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'user-edit-dialog')
  })

  test('user menu and edit-account dialog', async ({ page, adminApi }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Account Screen ${uniqueId()}`])
    await signIn(page, user.username, user.password)

    const menu = await openUserMenu(page, user.name)
    await expectAccessible(page)
    await saveScreenshot(page, 'user-menu')

    await menu.getByRole('menuitem', { name: 'Edit account' }).click()
    await expect(dialog(page, 'Edit account')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'edit-account-dialog')
  })

  test('language menu', async ({ page, adminApi }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Languages ${uniqueId()}`])
    await signIn(page, user.username, user.password)
    await page.getByRole('button', { name: /^Language/ }).click()
    await expect(page.getByRole('menuitem', { name: 'Deutsch' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'language-menu')
  })

  test('dark mode', async ({ page, adminApi }) => {
    const { user, projects } = await newMemberWithProjects(adminApi, [`Dark ${uniqueId()}`])
    await page.addInitScript(() => localStorage.setItem('darkMode', '1'))

    await page.goto('/auth/login')
    await expect(signInForm(page).username).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'dark-sign-in')

    await signIn(page, user.username, user.password)
    await expect(page.getByText('No tasks yet')).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'dark-project-history')

    await page.goto(`/project/${projects[0]!.id}/settings`)
    await expect(page.getByRole('region', { name: 'General' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'dark-project-settings')
  })

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true })

    test('sign-in, project page and open drawer', async ({ page, adminApi }) => {
      const { user } = await newMemberWithProjects(adminApi, [`Phone ${uniqueId()}`])
      await page.goto('/auth/login')
      await expect(signInForm(page).username).toBeVisible()
      await expectAccessible(page)
      await saveScreenshot(page, 'mobile-sign-in')

      await signIn(page, user.username, user.password)
      await expect(page.getByText('No tasks yet')).toBeVisible()
      await expectAccessible(page)
      await saveScreenshot(page, 'mobile-project-history')

      await page.getByRole('button', { name: 'Open navigation menu' }).click()
      await expect(page.getByRole('button', { name: /^Current project: / })).toBeVisible()
      await expectAccessible(page)
      await saveScreenshot(page, 'mobile-drawer')
    })
  })

  test('page not found', async ({ page, adminApi }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Missing ${uniqueId()}`])
    await signIn(page, user.username, user.password)
    await page.goto('/no-such-page')
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible()
    await expectAccessible(page)
    await saveScreenshot(page, 'not-found')
  })
})
