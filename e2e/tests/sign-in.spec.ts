import {
  expect,
  newMemberWithProjects,
  openUserMenu,
  signIn,
  signInForm,
  test,
  uniqueId,
} from '../support/fixtures.js'

test.describe('sign-in', () => {
  test('asks for both fields before signing in', async ({ page }) => {
    await page.goto('/auth/login')
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to Flagman' })).toBeVisible()
    await signInForm(page).submit.click()
    await expect(page.getByText('Username is required')).toBeVisible()
    await expect(page.getByText('Password is required')).toBeVisible()
    await expect(page).toHaveURL(/\/auth\/login$/)
  })

  test('a wrong password is refused, then the right one enters the app', async ({
    page,
    adminApi,
  }) => {
    const name = `Sign In ${uniqueId()}`
    const { user, projects } = await newMemberWithProjects(adminApi, [name])
    const project = projects[0]!

    await page.goto('/auth/login')
    const form = signInForm(page)
    await form.username.fill(user.username)
    await form.password.fill(`${user.password}-wrong`)
    await form.submit.click()
    await expect(page.getByRole('main').getByRole('alert')).toHaveText(
      'Incorrect login or password',
    )
    await expect(page).toHaveURL(/\/auth\/login$/)

    await form.password.fill(user.password)
    await form.submit.click()
    await expect(page).toHaveURL(new RegExp(`/project/${project.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
    await expect(page.getByText('Incorrect login or password')).toHaveCount(0)
  })

  test('a signed-in user opening the sign-in page is taken into the app', async ({
    page,
    adminApi,
  }) => {
    const name = `Redirect ${uniqueId()}`
    const { user, projects } = await newMemberWithProjects(adminApi, [name])
    await signIn(page, user.username, user.password)
    await expect(page).toHaveURL(new RegExp(`/project/${projects[0]!.id}/history$`))

    await page.goto('/auth/login')
    await expect(page).toHaveURL(new RegExp(`/project/${projects[0]!.id}/history$`))
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible()
  })

  test('signing out from the user menu returns to the sign-in page', async ({ page, adminApi }) => {
    const { user } = await newMemberWithProjects(adminApi, [`Sign Out ${uniqueId()}`])
    await signIn(page, user.username, user.password)

    const menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'Sign out' }).click()
    await expect(page).toHaveURL(/\/auth\/login$/)
    await expect(signInForm(page).username).toBeVisible()

    // The session is really over: the app sends the user back to sign in.
    await page.goto('/')
    await expect(page).toHaveURL(/\/auth\/login$/)
    await expect(signInForm(page).username).toBeVisible()
  })
})
