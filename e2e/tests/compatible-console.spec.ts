import { ADMIN } from '../support/constants.js'
import { expect, test } from '../support/fixtures.js'

/*
 * The compatible web console decides whether it is signed in from JavaScript, by looking
 * for `semaphore=` in `document.cookie`, then loads `/api/user`. The session cookie itself
 * is HttpOnly, so a marker cookie must be there for that check. This page does what that
 * console does, served from the server's own origin.
 */
const PAGE_PATH = '/compatible-console-check.html'
const PAGE = `<!doctype html>
<html>
  <body>
    <p id="state">loading</p>
    <form id="sign-in" hidden>
      <label>Login <input name="auth" /></label>
      <label>Password <input name="password" type="password" /></label>
      <button type="submit">Sign in</button>
    </form>
    <button id="sign-out" hidden>Sign out</button>
    <script>
      const state = document.getElementById('state')
      const form = document.getElementById('sign-in')
      const signOut = document.getElementById('sign-out')
      const isAuthenticated = () => document.cookie.includes('semaphore=')
      async function start() {
        if (!isAuthenticated()) {
          state.textContent = 'signed out'
          form.hidden = false
          return
        }
        const response = await fetch('/api/user')
        if (response.status === 401) {
          state.textContent = 'session ended'
          form.hidden = false
          return
        }
        const user = await response.json()
        state.textContent = 'signed in as ' + user.username
        signOut.hidden = false
      }
      form.addEventListener('submit', async (event) => {
        event.preventDefault()
        const data = new FormData(form)
        const response = await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth: data.get('auth'), password: data.get('password') }),
        })
        if (response.status !== 204) {
          state.textContent = 'refused ' + response.status
          return
        }
        document.location.reload()
      })
      signOut.addEventListener('click', async () => {
        await fetch('/api/auth/logout', { method: 'POST' })
        document.location.reload()
      })
      start()
    </script>
  </body>
</html>`

test('a console that checks the marker cookie from JavaScript signs in and out', async ({
  page,
  baseURL,
}) => {
  await page.route(`${baseURL}${PAGE_PATH}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: PAGE }),
  )
  await page.goto(PAGE_PATH)
  await expect(page.locator('#state')).toHaveText('signed out')

  await page.getByLabel('Login').fill(ADMIN.login)
  await page.getByLabel('Password').fill(ADMIN.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.locator('#state')).toHaveText(`signed in as ${ADMIN.login}`)

  // Scripts see the marker, never the session itself.
  const visible = await page.evaluate(() => document.cookie)
  expect(visible).toBe('signed_in_semaphore=1')
  const cookies = await page.context().cookies()
  const session = cookies.find((c) => c.name === 'semaphore')
  expect(session?.httpOnly).toBe(true)
  expect(cookies.find((c) => c.name === 'signed_in_semaphore')?.httpOnly).toBe(false)

  await page.getByRole('button', { name: 'Sign out' }).click()
  await expect(page.locator('#state')).toHaveText('signed out')
  expect(await page.evaluate(() => document.cookie)).toBe('')
})
