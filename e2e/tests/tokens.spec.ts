import {
  dialog,
  expect,
  expectAccessible,
  newMemberWithProjects,
  openUserMenu,
  signIn,
  snackbar,
  test,
  uniqueId,
} from '../support/fixtures.js'

test.describe('API tokens', () => {
  test('a user creates a token, copies it, uses it, sees it used, and revokes it', async ({
    page,
    context,
    adminApi,
    request,
    baseURL,
  }) => {
    const id = uniqueId()
    const { user } = await newMemberWithProjects(adminApi, [`Tokens ${id}`], {
      name: `Tove ${id}`,
    })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL })
    await signIn(page, user.username, user.password)

    let menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'API tokens' }).click()
    let tokens = dialog(page, 'API tokens')
    await expect(tokens).toBeVisible()
    await expect(tokens.getByText('You have no API tokens yet.')).toBeVisible()

    // Create: a name and a last day; the whole token is shown this once.
    const expires = new Date(Date.now() + 30 * 24 * 3600 * 1000)
    const day = [
      expires.getFullYear(),
      String(expires.getMonth() + 1).padStart(2, '0'),
      String(expires.getDate()).padStart(2, '0'),
    ].join('-')
    await tokens.getByRole('textbox', { name: 'Name' }).fill(`deploy ${id}`)
    await tokens.getByLabel('Expires on').fill(day)
    await tokens.getByRole('button', { name: 'Create token' }).click()
    await expect(snackbar(page, `Token deploy ${id} created`)).toBeVisible()
    await expect(tokens.getByText(/it is shown only once/)).toBeVisible()
    const shown = tokens.getByRole('textbox', { name: `New token deploy ${id}` })
    const whole = await shown.inputValue()
    expect(whole).toMatch(/^[a-z0-9_=-]{44}$/)
    await tokens.getByRole('button', { name: 'Copy the token' }).click()
    await expect(snackbar(page, 'The token has been copied to your clipboard.')).toBeVisible()
    const copied = await page.evaluate(() => navigator.clipboard.readText())
    expect(copied).toBe(whole)

    // Listed by its first characters only, not yet used.
    const row = tokens.getByRole('row').filter({ hasText: `deploy ${id}` })
    await expect(row).toContainText(`${whole.slice(0, 8)}…`)
    await expect(row.getByRole('cell').nth(4)).toHaveText('Never')
    await expect(row.getByRole('cell').nth(3)).not.toHaveText('Never')
    await expectAccessible(page, '[role="dialog"]')
    await tokens.getByRole('button', { name: 'Done' }).click()
    await expect(tokens.getByText(whole)).toHaveCount(0)
    await expect(tokens.locator(`input[value="${whole}"]`)).toHaveCount(0)
    await tokens.getByRole('button', { name: 'Close' }).click()
    await expect(tokens).toBeHidden()

    // The copied token calls the API as the user.
    const bearer = { Authorization: `Bearer ${copied}` }
    const me = await request.get(`${baseURL}/api/user`, { headers: bearer })
    expect(me.status()).toBe(200)
    expect(await me.json()).toMatchObject({ id: user.id, username: user.username })

    // Opened again, the list shows when it was used.
    menu = await openUserMenu(page, user.name)
    await menu.getByRole('menuitem', { name: 'API tokens' }).click()
    tokens = dialog(page, 'API tokens')
    const usedRow = tokens.getByRole('row').filter({ hasText: `deploy ${id}` })
    await expect(usedRow.getByRole('cell').nth(4)).not.toHaveText('Never')
    await expect(usedRow.getByRole('cell').nth(4)).toHaveText(/\d/)

    // Revoke, after asking: the token stops working.
    await usedRow.getByRole('button', { name: `Revoke deploy ${id}` }).click()
    const confirm = dialog(page, 'Revoke token?')
    await confirm.getByRole('button', { name: 'Revoke' }).click()
    await expect(snackbar(page, `Token deploy ${id} revoked`)).toBeVisible()
    await expect(confirm).toBeHidden()
    await expect(usedRow).toContainText('Revoked or expired')
    await expect(usedRow.getByRole('button', { name: /Revoke/ })).toHaveCount(0)

    const refused = await request.get(`${baseURL}/api/user`, { headers: bearer })
    expect(refused.status()).toBe(401)
  })
})
