import { listUsers } from '@flagman/contract'
import { type Locator, type Page } from '@playwright/test'
import {
  dialog,
  expect,
  newMemberWithProjects,
  newProject,
  openUserMenu,
  signIn,
  snackbar,
  test,
  uniqueId,
  userMenuButton,
} from '../support/fixtures.js'
import { ADMIN } from '../support/constants.js'

/**
 * The row of a user in the users table, paging through the table (20 rows a page) when other
 * tests have filled it.
 */
async function userRow(page: Page, username: string): Promise<Locator> {
  const table = page.getByRole('table', { name: 'Users' })
  const row = table.getByRole('row').filter({ has: page.getByRole('cell', { name: username }) })
  const previous = page.getByRole('button', { name: 'Go to previous page' })
  const next = page.getByRole('button', { name: 'Go to next page' })
  await expect(table.getByRole('row').nth(1)).toBeVisible()
  while (await previous.isEnabled()) await previous.click()
  while ((await row.count()) === 0 && (await next.isEnabled())) await next.click()
  return row
}

test.describe('users', () => {
  test('an admin creates, edits and deletes a user', async ({ page, adminApi }) => {
    const id = uniqueId()
    const username = `dora-${id}`
    const name = `Dora ${id}`
    const renamed = `Dora Renamed ${id}`
    const project = await newProject(adminApi, `Users Page ${id}`)
    await signIn(page)
    await page.goto(`/project/${project.id}/history`)

    await expect(userMenuButton(page, ADMIN.name).getByText('Admin', { exact: true })).toBeVisible()
    const menu = await openUserMenu(page, ADMIN.name)
    await menu.getByRole('menuitem', { name: 'Users' }).click()
    await expect(page).toHaveURL(/\/users$/)
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()

    // Create: the password is required for a new user.
    await page.getByRole('button', { name: 'New user' }).click()
    const create = dialog(page, 'New user')
    await expect(create).toBeVisible()
    await create.getByRole('textbox', { name: 'Name', exact: true }).fill(name)
    await create.getByRole('textbox', { name: 'Username', exact: true }).fill(username)
    await create
      .getByRole('textbox', { name: 'Email', exact: true })
      .fill(`${username}@example.test`)
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(create.getByText('Password is required')).toBeVisible()
    await create.getByRole('textbox', { name: 'Password', exact: true }).fill('first-password')
    await create.getByRole('button', { name: 'Create' }).click()
    await expect(snackbar(page, `User ${name} created`)).toBeVisible()
    await expect(create).toBeHidden()
    const row = await userRow(page, username)
    await expect(row).toContainText(name)
    await expect(row).toContainText(`${username}@example.test`)

    // Edit: the password may stay empty.
    await row.getByRole('button', { name: `Edit ${name}` }).click()
    const edit = dialog(page, 'Edit user')
    await expect(edit.getByRole('textbox', { name: 'Username', exact: true })).toHaveValue(username)
    await expect(edit.getByText('Leave empty to keep the current password')).toBeVisible()
    await edit.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed)
    await edit.getByRole('switch', { name: 'Send alerts' }).check()
    await edit.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, `User ${renamed} saved`)).toBeVisible()
    await expect(edit).toBeHidden()
    const renamedRow = await userRow(page, username)
    await expect(renamedRow).toContainText(renamed)

    let stored = (await adminApi.call(listUsers)).find((user) => user.username === username)
    expect(stored).toMatchObject({ name: renamed, alert: true, admin: false })

    // Delete, after a confirmation naming the user.
    await renamedRow.getByRole('button', { name: `Delete ${renamed}` }).click()
    const confirm = dialog(page, 'Delete user?')
    await expect(confirm).toContainText(renamed)
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click()
    await expect(snackbar(page, `User ${renamed} deleted`)).toBeVisible()
    await expect(confirm).toBeHidden()
    await expect(page.getByRole('cell', { name: username, exact: true })).toHaveCount(0)

    stored = (await adminApi.call(listUsers)).find((user) => user.username === username)
    expect(stored).toBeUndefined()
  })

  test('a user who is not an admin has no Users entry and no users page', async ({
    page,
    adminApi,
  }) => {
    const { user, projects } = await newMemberWithProjects(adminApi, [`Member ${uniqueId()}`])
    await signIn(page, user.username, user.password)
    await expect(page).toHaveURL(new RegExp(`/project/${projects[0]!.id}/history$`))

    await expect(userMenuButton(page, user.name).getByText('Admin', { exact: true })).toHaveCount(0)
    const menu = await openUserMenu(page, user.name)
    await expect(menu.getByRole('menuitem', { name: 'Edit account' })).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: 'Sign out' })).toBeVisible()
    await expect(menu.getByRole('menuitem', { name: 'Users' })).toHaveCount(0)
    await page.keyboard.press('Escape')

    // The page says who it is for instead of sending the user elsewhere without a word.
    await page.goto('/users')
    await expect(page).toHaveURL(/\/users$/)
    await expect(page.getByText('For administrators only')).toBeVisible()
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toHaveCount(0)
  })
})
