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

test.describe('API reference', () => {
  test('renders the API document with files of this server alone', async ({ page, baseURL }) => {
    const problems: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
    page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`))
    page.on('request', (request) => {
      if (!request.url().startsWith(baseURL!)) problems.push(`elsewhere: ${request.url()}`)
    })
    await page.goto('/api/docs')
    await expect(page.getByRole('heading', { name: /Flagman API/ })).toBeVisible()
    // The page draws its sections as they scroll into view; the first operation is there.
    await expect(page.locator('.opblock').first()).toBeVisible()
    expect(problems).toEqual([])
  })
})
