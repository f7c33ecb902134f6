import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SystemInfo, User } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { FLAGMAN_BIN, inheritedEnv, startTestServer, type TestServer } from '../support/server.js'

const TOO_SHORT = 'Password must be at least 8 characters'

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

/** Runs `bin/flagman` with the given environment (the test server's, for the same database). */
function flagman(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FLAGMAN_BIN, ...args], { env, stdio: 'pipe' })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

describe.each(dialects())('password minimum length on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function signInStatus(auth: string, password: string): Promise<number> {
    return (await world.request('POST', '/api/auth/login', { json: { auth, password } })).status
  }

  it('tells the console the minimum in /api/info', async () => {
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.password_min_length).toBe(8)
  })

  it('refuses a short password when an administrator creates a user, and creates none', async () => {
    const username = unique('short')
    const json = { username, name: 'Short', email: `${username}@example.test` }
    expectError(
      await world.request('POST', '/api/users', {
        as: admin.as,
        json: { ...json, password: 'seven77' },
      }),
      400,
      TOO_SHORT,
    )
    expect(await signInStatus(username, 'seven77')).toBe(401)
    // Characters, not bytes: seven letters of two bytes each are still seven.
    expectError(
      await world.request('POST', '/api/users', {
        as: admin.as,
        json: { ...json, password: 'ééééééé' },
      }),
      400,
      TOO_SHORT,
    )
    const created = await world.request('POST', '/api/users', {
      as: admin.as,
      json: { ...json, password: 'eight888' },
    })
    expectBody(created, 201, User)
    expect(await signInStatus(username, 'eight888')).toBe(204)
  })

  it('refuses a short password on every path that changes one, keeping the old one', async () => {
    const person = await world.newUser()
    const own = (json: unknown) =>
      world.request('POST', `/api/users/${person.id}/password`, { as: person.as, json })
    expectError(await own({ password: 'short', current_password: person.password }), 400, TOO_SHORT)
    const edit = (json: Record<string, unknown>, as = person.as) =>
      world.request('PUT', `/api/users/${person.id}`, {
        as,
        json: { username: person.username, name: person.name, email: person.email, ...json },
      })
    expectError(
      await edit({ password: 'short', current_password: person.password }),
      400,
      TOO_SHORT,
    )
    // An administrator resetting someone's password is held to the same rule.
    expectError(
      await world.request('POST', `/api/users/${person.id}/password`, {
        as: admin.as,
        json: { password: 'short' },
      }),
      400,
      TOO_SHORT,
    )
    expectError(await edit({ password: 'short' }, admin.as), 400, TOO_SHORT)
    expect(await signInStatus(person.username, person.password)).toBe(204)

    // A wrong current password is still reported as such, whatever the new one's length.
    expectError(
      await own({ password: 'short', current_password: 'not-it-at-all' }),
      400,
      /incorrect/,
    )

    expectNoContent(await own({ password: 'long-enough', current_password: person.password }))
    expect(await signInStatus(person.username, 'long-enough')).toBe(204)
  })

  it('holds the command-line tool to the minimum, with one clear line', async () => {
    const login = unique('clishort')
    const add = (password: string) =>
      flagman(
        server.env,
        'user',
        'add',
        '--login',
        login,
        '--password',
        password,
        '--name',
        'CLI',
        '--email',
        `${login}@example.test`,
      )
    const refused = await add('1234567')
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(`flagman: ${TOO_SHORT}\n`)
    expect((await add('12345678')).code).toBe(0)

    const change = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      login,
      '--password',
      'tiny',
    )
    expect(change.code).toBe(1)
    expect(change.stderr).toBe(`flagman: ${TOO_SHORT}\n`)
    const both = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      login,
      '--name',
      'Renamed',
      '--password',
      'tiny',
    )
    expect(both.stderr).toBe(`flagman: ${TOO_SHORT}\n`)
    expect(await signInStatus(login, '12345678')).toBe(204)
  }, 60_000)
})

describe('password minimum length settings', () => {
  const servers: TestServer[] = []
  afterAll(async () => {
    for (const server of servers) await server.stop()
  })

  it('follows FLAGMAN_PASSWORD_MIN_LENGTH', async () => {
    const server = await startTestServer('sqlite', { FLAGMAN_PASSWORD_MIN_LENGTH: '16' })
    servers.push(server)
    const world = new World(server)
    const admin = await world.admin()
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.password_min_length).toBe(16)
    const username = unique('sixteen')
    expectError(
      await world.request('POST', '/api/users', {
        as: admin.as,
        json: {
          username,
          name: 'T',
          email: `${username}@example.test`,
          password: 'fifteen-letters',
        },
      }),
      400,
      'Password must be at least 16 characters',
    )
  })

  it('does not start with a first administrator password below the minimum', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'flagman-test-'))
    try {
      const run = await flagman(
        {
          ...inheritedEnv(),
          FLAGMAN_HOST: '127.0.0.1',
          FLAGMAN_PORT: '0',
          FLAGMAN_DATA_DIR: dataDir,
          FLAGMAN_LOG_LEVEL: 'warn',
          FLAGMAN_ADMIN_PASSWORD: 'short',
        },
        'server',
      )
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(
        /^flagman: FLAGMAN_ADMIN_PASSWORD is too short: Password must be at least 8 characters \(FLAGMAN_PASSWORD_MIN_LENGTH\)$/m,
      )
      expect(run.stdout).not.toMatch(/listening/)
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  it('removes the generated first-administrator password once it has been changed', async () => {
    const server = await startTestServer('sqlite', { FLAGMAN_ADMIN_PASSWORD: '' })
    servers.push(server)
    const file = join(server.dataDir, 'initial-admin-password')
    const generated = readFileSync(file, 'utf8').trim()
    expect(generated.length).toBeGreaterThanOrEqual(8)
    const world = new World(server)
    const as = await world.signIn('admin', generated)
    const me = expectBody(await world.request('GET', '/api/user', { as }), 200, User)

    // A refused change leaves the file where it is.
    expectError(
      await world.request('POST', `/api/users/${me.id}/password`, {
        as,
        json: { password: 'short', current_password: generated },
      }),
      400,
      TOO_SHORT,
    )
    expect(existsSync(file)).toBe(true)

    expectNoContent(
      await world.request('POST', `/api/users/${me.id}/password`, {
        as,
        json: { password: 'chosen-by-the-admin', current_password: generated },
      }),
    )
    expect(existsSync(file)).toBe(false)
  })
})
