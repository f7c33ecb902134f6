import { getCurrentUser } from '@flagman/contract'
import {
  apiAs,
  dialog,
  expect,
  newMemberWithProjects,
  openUserMenu,
  signIn,
  signInForm,
  snackbar,
  test,
  uniqueId,
  userMenuButton,
} from '../support/fixtures.js'

test.describe('own account', () => {
  test('a user changes their name and password, then signs in with the new password', async ({
    page,
    adminApi,
    request,
    baseURL,
  }) => {
    const id = uniqueId()
    const { user } = await newMemberWithProjects(adminApi, [`Account ${id}`], {
      name: `Frida ${id}`,
    })
    const renamed = `Frida Renamed ${id}`
    const newPassword = `new-password-${id}`
    await signIn(page, user.username, user.password)

    // Name: the account form is the user form without the password and admin flag.
    let menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'Edit account' }).click()
    let account = dialog(page, 'Edit account')
    await expect(account).toBeVisible()
    await expect(account.getByRole('textbox', { name: 'Username', exact: true })).toHaveValue(
      user.username,
    )
    await expect(account.getByRole('switch', { name: 'Admin user' })).toHaveCount(0)
    await expect(account.getByRole('switch', { name: 'Pro user' })).toBeDisabled()
    await account.getByRole('textbox', { name: 'Name', exact: true }).fill(renamed)
    await account.getByRole('button', { name: 'Save' }).click()
    await expect(snackbar(page, `User ${renamed} saved`)).toBeVisible()
    await expect(account).toBeHidden()
    await expect(userMenuButton(page, renamed)).toBeVisible()

    // Password: its own form in the same dialog, which requires the current password too.
    menu = await openUserMenu(page, renamed)
    await menu.getByRole('menuitem', { name: 'Edit account' }).click()
    account = dialog(page, 'Edit account')
    await expect(account.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue(renamed)
    await account.getByRole('button', { name: 'Change password' }).click()
    await expect(account.getByText('Current password is required')).toBeVisible()
    await expect(account.getByText('Password is required', { exact: true })).toBeVisible()
    const current = account.getByRole('textbox', { name: 'Current password' })
    await current.fill('not-my-password')
    await account.getByRole('textbox', { name: 'New password' }).fill(newPassword)
    await account.getByRole('button', { name: 'Change password' }).click()
    await expect(account.getByRole('alert')).toHaveText('The current password is incorrect')
    await current.fill(user.password)
    await account.getByRole('button', { name: 'Change password' }).click()
    await expect(snackbar(page, 'Password changed')).toBeVisible()
    await expect(account.getByRole('textbox', { name: 'New password' })).toHaveValue('')
    await expect(current).toHaveValue('')
    await account.getByRole('button', { name: 'Cancel' }).click()
    await expect(account).toBeHidden()

    // Sign out, then the old password no longer works and the new one does.
    menu = await openUserMenu(page, renamed)
    await menu.getByRole('menuitem', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/auth\/login$/)
    const form = signInForm(page)
    await form.username.fill(user.username)
    await form.password.fill(user.password)
    await form.submit.click()
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'Incorrect login or password',
    )

    await form.password.fill(newPassword)
    await form.submit.click()
    await expect(page).not.toHaveURL(/\/auth\/login/)
    await expect(userMenuButton(page, renamed)).toBeVisible()

    const api = await apiAs(request, baseURL!, user.username, newPassword)
    expect(await api.call(getCurrentUser)).toMatchObject({ name: renamed, admin: false })
  })
})
