import { dialog, expect, signIn, test, uniqueId } from '../support/fixtures.js'
import { gitRepository } from '../support/git-repository.js'
import { taskProject } from '../support/task-project.js'

const SECURITY_HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
}

/** The nonce the policy's `style-src` allows, if any. */
function styleNonce(policy: string): string | undefined {
  return /(?:^|;)\s*style-src 'self' 'nonce-([^']+)'(?:;|$)/.exec(policy)?.[1]
}

test.describe('content security policy', () => {
  test('the console and the API send the security headers', async ({ request }) => {
    for (const path of ['/', '/auth/login', '/api/ping', '/favicon.svg']) {
      const response = await request.get(path)
      expect(response.status(), path).toBe(200)
      const headers = response.headers()
      expect(headers, path).toMatchObject(SECURITY_HEADERS)
      const policy = headers['content-security-policy'] ?? ''
      expect(policy, path).toContain("default-src 'self'")
      expect(policy, path).toContain("script-src 'self'")
      expect(policy, path).toContain("frame-ancestors 'none'")
      expect(policy, path).not.toContain('unsafe-inline')
      if (path.startsWith('/api/') || path.includes('.')) {
        // Only the console's page names a nonce.
        expect(policy, path).toContain("style-src 'self';")
        expect(policy, path).not.toContain('nonce-')
      } else {
        expect(styleNonce(policy), path).toMatch(/^[A-Za-z0-9+/]{22,}={0,2}$/)
        expect(headers['cache-control'], path).toBe('no-store')
      }
    }
  })

  test('each load of the console gets its own style nonce', async ({ request }) => {
    const nonces: string[] = []
    for (let load = 0; load < 2; load++) {
      const response = await request.get('/')
      const nonce = styleNonce(response.headers()['content-security-policy'] ?? '')
      expect(nonce).toBeDefined()
      // The page hands the same nonce to the console.
      expect(await response.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}">`)
      nonces.push(nonce ?? '')
    }
    expect(nonces[0]).not.toBe(nonces[1])
  })

  test('no screen of the console breaks the policy', async ({ page, adminApi }) => {
    test.setTimeout(120_000)
    const repo = gitRepository({
      'hello.sh': 'printf "\\033[32mgreen line\\033[0m\\n"\necho done\n',
    })
    try {
      // Violations are reported to the page as events, and logged to its console.
      await page.addInitScript(() => {
        const seen: string[] = []
        ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
        document.addEventListener('securitypolicyviolation', (event) => {
          seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}`)
        })
      })
      const logged: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) logged.push(message.text())
      })
      const violations = async () => [
        ...(await page.evaluate(
          () => (window as unknown as { cspViolations: string[] }).cspViolations,
        )),
        ...logged,
      ]

      const fixture = await taskProject(adminApi, repo.path, 'Policy')
      const { project } = fixture
      const template = await fixture.template('hello.sh')

      // Signing in sends a write from the console: the referrer policy keeps its Origin.
      await signIn(page)
      const base = `/project/${project.id}`

      const answer = await page.goto(`${base}/templates`)
      await expect(page.getByText('hello', { exact: true }).first()).toBeVisible()
      // Every style element of the page carries this answer's nonce; the browser hides the
      // attribute from the page's markup.
      const nonce = styleNonce((await answer?.allHeaders())?.['content-security-policy'] ?? '')
      expect(nonce).toBeDefined()
      const styles = await page.evaluate(() =>
        Array.from(document.querySelectorAll('style'), (style) => ({
          emotion: style.hasAttribute('data-emotion'),
          nonce: style.nonce,
          attribute: style.getAttribute('nonce'),
        })),
      )
      expect(styles.filter((style) => style.emotion).length).toBeGreaterThan(0)
      for (const style of styles) expect(style).toMatchObject({ nonce, attribute: '' })

      // The task log reads live output over the websocket.
      const taskId = await fixture.run(template)
      await page.goto(`${base}/history?t=${taskId}`)
      const log = page.getByRole('dialog')
      await expect(log.getByText('green line', { exact: true })).toBeVisible({ timeout: 20_000 })
      await expect(log.getByText('Success', { exact: true })).toBeVisible({ timeout: 20_000 })
      await log.getByRole('button', { name: 'Close' }).click()
      await expect(log).toBeHidden()

      await page.goto(`${base}/environment`)
      await page.getByRole('button', { name: 'New environment' }).first().click()
      const environment = dialog(page, 'New environment')
      await environment.getByLabel(/^Name/).fill(`env ${uniqueId()}`)
      await environment.getByLabel('Password').fill('policy-pw')
      await environment.getByRole('button', { name: 'Create' }).click()
      await expect(environment).toBeHidden()

      await page.goto(`${base}/keys`)
      await expect(page.getByRole('heading', { level: 1, name: 'Key Store' })).toBeVisible()
      await page.goto(`${base}/team`)
      await expect(page.getByRole('heading', { level: 1, name: 'Team' })).toBeVisible()
      await page.goto(`${base}/activity`)
      await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible()
      await page.goto('/users')
      await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible()
      await page.getByRole('button', { name: 'New user' }).click()
      await expect(dialog(page, 'New user')).toBeVisible()
      await page.keyboard.press('Escape')

      await page.goto(`${base}/history`)
      await page.getByRole('switch', { name: 'Dark mode' }).check()
      await expect(page.getByRole('switch', { name: 'Dark mode' })).toBeChecked()

      // Changing the language reloads the page; the listener is installed again on load.
      const before = await violations()
      await page.getByRole('button', { name: /^Language/ }).click()
      await Promise.all([
        page.waitForEvent('load'),
        page.getByRole('menu').getByRole('menuitem', { name: 'Deutsch' }).click(),
      ])
      await expect(page.locator('html')).toHaveAttribute('lang', 'de')
      await page.goto(`${base}/templates`)
      await expect(page.locator('html')).toHaveAttribute('lang', 'de')
      await expect(page.getByText('hello', { exact: true }).first()).toBeVisible()

      expect(before).toEqual([])
      expect(await violations()).toEqual([])
    } finally {
      repo.dispose()
    }
  })
})
