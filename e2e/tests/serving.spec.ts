import { expect, signInForm, test } from '../support/fixtures.js'

test.describe('serving the console', () => {
  test('the server address and client routes get the console, unknown API paths do not', async ({
    page,
    request,
  }) => {
    for (const path of ['/', '/auth/login', '/users', '/project/new', '/project/1/settings']) {
      const response = await request.get(path)
      expect(response.status(), path).toBe(200)
      expect(response.headers()['content-type'], path).toContain('text/html')
    }
    const api = await request.get('/api/no-such-route')
    expect(api.status()).toBe(404)
    expect(await api.json()).toEqual({ error: 'Not Found' })

    // Signed out, the console sends every page to the sign-in page.
    for (const path of ['/', '/users']) {
      await page.goto(path)
      await expect(page).toHaveURL(/\/auth\/login$/)
      await expect(signInForm(page).username).toBeVisible()
    }
  })
})
