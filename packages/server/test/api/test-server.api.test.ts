import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN, sessionCookie, startTestServer, type TestServer } from '../support/server.js'

/** The test server itself: what it inherits, and that it can always be stopped. */
describe('test server', () => {
  let server: TestServer | undefined
  afterAll(async () => {
    await server?.stop()
  })

  it('starts with the settings the test gives, never those of the caller', async () => {
    const saved = { ...process.env }
    // Settings a developer might have in their shell, each of which would change results.
    process.env.FLAGMAN_PASSWORD_LOGIN_DISABLE = 'true'
    process.env.FLAGMAN_LOGIN_MAX_ATTEMPTS = '1'
    process.env.FLAGMAN_ADMIN_NAME = 'Inherited Name'
    try {
      server = await startTestServer('sqlite')
    } finally {
      for (const name of Object.keys(process.env)) {
        if (!(name in saved)) delete process.env[name]
      }
      Object.assign(process.env, saved)
    }
    expect(
      Object.keys(server.env)
        .filter((name) => name.startsWith('FLAGMAN_'))
        .sort(),
    ).toEqual([
      'FLAGMAN_ADMIN_EMAIL',
      'FLAGMAN_ADMIN_LOGIN',
      'FLAGMAN_ADMIN_PASSWORD',
      'FLAGMAN_DATA_DIR',
      'FLAGMAN_HOST',
      'FLAGMAN_LOGIN_MAX_ATTEMPTS',
      'FLAGMAN_LOG_LEVEL',
      'FLAGMAN_PORT',
      'FLAGMAN_SHUTDOWN_DRAIN_SECONDS',
    ])
    // Two failed sign-ins, then one by password that works: neither setting reached it.
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const refused = await server.fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ auth: ADMIN.login, password: 'not the password' }),
      })
      expect(refused.status).toBe(401)
    }
    const cookie = await sessionCookie(server.url, ADMIN.login, ADMIN.password)
    const me = await server.fetch('/api/user', { headers: { Cookie: cookie } })
    expect(me.status).toBe(200)
    expect(await me.json()).toMatchObject({ username: ADMIN.login, name: 'Administrator' })
  })

  it('stops a server that was killed with SIGKILL', async () => {
    if (!server?.kill) throw new Error('the test server can not be killed')
    await server.kill('SIGKILL')
    // The process is gone by a signal, not an exit code; stopping must not wait for it again.
    await server.stop()
    server = undefined
  })
})
