import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { CurrentUser } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, dialects, type ScratchDatabase } from '../support/databases.js'
import { unique, World } from '../support/fixtures.js'
import { expectBody, expectError } from '../support/http.js'
import {
  ADMIN,
  FLAGMAN_BIN,
  inheritedEnv,
  startTestServer,
  type TestServer,
} from '../support/server.js'

const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
).version

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

/** A failed command: non-zero exit and exactly one line `flagman: …` on standard error. */
function expectFailure(run: Run, message: RegExp): void {
  expect(run.code, run.stderr).not.toBe(0)
  expect(run.stderr).toMatch(/^flagman: [^\n]+\n$/)
  expect(run.stderr).toMatch(message)
}

describe('flagman without a database', () => {
  it('prints the version', async () => {
    const run = await flagman(inheritedEnv(), 'version')
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })

  it('reports a database setting it can not use on one line', async () => {
    const run = await flagman(
      { ...inheritedEnv(), FLAGMAN_DB: 'oracle://somewhere' },
      'user',
      'list',
    )
    expectFailure(run, /FLAGMAN_DB/)
  })

  it('checks what it is given before touching any database', async () => {
    const run = await flagman(
      { ...inheritedEnv(), FLAGMAN_DB: 'postgres://127.0.0.1:1/unreachable' },
      'user',
      'add',
      '--login',
      'someone',
      '--password',
      'pw',
      '--name',
      'N',
      '--email',
      'not-an-email',
    )
    expectFailure(run, /email must be a valid email address/)
  })

  it('prints the version with --version too', async () => {
    const run = await flagman(inheritedEnv(), '--version')
    expect(run).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
  })

  it('answers a wrong command line with one line pointing at --help, and exit status 1', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /missing command; see 'flagman --help'/],
      [['bogus'], /unknown command 'bogus'; see 'flagman --help'/],
      [['user'], /missing command; see 'flagman user --help'/],
      [['user', 'bogus'], /unknown command 'bogus'; see 'flagman user --help'/],
      [
        ['user', 'add', '--login', 'x'],
        /'--password <password>' not specified; see 'flagman user add --help'/,
      ],
      [['user', 'list', '--bogus'], /unknown option '--bogus'; see 'flagman user list --help'/],
      [['user', 'change-by-login', '--login', 'x'], /Nothing to change/],
    ]
    for (const [args, message] of cases) {
      const run = await flagman(inheritedEnv(), ...args)
      expect(run.code, args.join(' ')).toBe(1)
      expect(run.stdout).toBe('')
      expectFailure(run, message)
    }
    // Seven processes, each loading the whole tool: on a loaded machine that takes a while.
  }, 120_000)

  it('explains itself with --help and exits 0', async () => {
    const run = await flagman(inheritedEnv(), '--help')
    expect(run.code).toBe(0)
    for (const command of ['server', 'migrate', 'version', 'user']) {
      expect(run.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'))
    }
    const user = await flagman(inheritedEnv(), 'user', '--help')
    expect(user.code).toBe(0)
    for (const command of ['add', 'list', 'change-by-login', 'delete']) {
      expect(user.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'))
    }
  })
})

describe.each(dialects())('flagman user commands on %s', (dialect) => {
  let server: TestServer
  let world: World

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function signInStatus(auth: string, password: string): Promise<number> {
    return (await world.request('POST', '/api/auth/login', { json: { auth, password } })).status
  }

  it('adds a user who can then sign in over HTTP, lists, re-passwords and deletes them', async () => {
    const login = unique('cli')
    const email = `${login}@example.test`
    const added = await flagman(
      server.env,
      'user',
      'add',
      '--login',
      login,
      '--password',
      'first-password',
      '--name',
      'Made By CLI',
      '--email',
      email,
    )
    expect(added).toEqual({ code: 0, stdout: `User ${login} created\n`, stderr: '' })

    const as = await world.signIn(login, 'first-password')
    const me = expectBody(await world.request('GET', '/api/user', { as }), 200, CurrentUser)
    expect(me).toMatchObject({ username: login, name: 'Made By CLI', email, admin: false })

    const list = await flagman(server.env, 'user', 'list')
    expect(list.code).toBe(0)
    expect(list.stdout.split('\n')).toContain(`${login}\tMade By CLI\t${email}`)
    expect(list.stdout).toMatch(new RegExp(`^${ADMIN.login}\\t.*\\tadmin$`, 'm'))

    const changed = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      login,
      '--password',
      'second-password',
    )
    expect(changed).toEqual({ code: 0, stdout: `Password of ${login} changed\n`, stderr: '' })
    expect(await signInStatus(login, 'first-password')).toBe(401)
    expect(await signInStatus(login, 'second-password')).toBe(204)
    // A new password ends the sessions opened with the old one.
    expectError(await world.request('GET', '/api/user', { as }), 401)

    const deleted = await flagman(server.env, 'user', 'delete', '--login', email.toUpperCase())
    expect(deleted).toEqual({ code: 0, stdout: `User ${login} deleted\n`, stderr: '' })
    expect(await signInStatus(login, 'second-password')).toBe(401)
    const admin = await world.admin()
    const users = await world.request('GET', '/api/users', { as: admin.as })
    expect(JSON.stringify(users.body)).not.toContain(login)
  })

  it('adds an administrator with --admin, and never deletes the last one', async () => {
    const login = unique('cliadmin')
    const added = await flagman(
      server.env,
      'user',
      'add',
      '--login',
      login,
      '--password',
      'cli-admin-password',
      '--name',
      'CLI Admin',
      '--email',
      `${login}@example.test`,
      '--admin',
    )
    expect(added.stdout).toBe(`User ${login} created (administrator)\n`)
    const me = await world.request('GET', '/api/user', {
      as: await world.signIn(login, 'cli-admin-password'),
    })
    expect(expectBody(me, 200, CurrentUser).admin).toBe(true)

    // Two administrators: one may go, the other then is the last.
    expect((await flagman(server.env, 'user', 'delete', '--login', login)).code).toBe(0)
    expectFailure(
      await flagman(server.env, 'user', 'delete', '--login', ADMIN.login),
      /last administrator/,
    )
    expect(await signInStatus(ADMIN.login, ADMIN.password)).toBe(204)
  })

  it('changes the name and email of a user and makes them an administrator', async () => {
    const person = await world.newUser()
    const email = `${unique('renamed')}@example.test`
    const changed = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      person.username,
      '--name',
      'Renamed By CLI',
      '--email',
      email,
      '--admin',
    )
    expect(changed).toEqual({ code: 0, stdout: `User ${person.username} changed\n`, stderr: '' })
    // Not a password change: the user stays signed in.
    const me = expectBody(
      await world.request('GET', '/api/user', { as: person.as }),
      200,
      CurrentUser,
    )
    expect(me).toMatchObject({
      username: person.username,
      name: 'Renamed By CLI',
      email,
      admin: true,
    })

    expectFailure(
      await flagman(
        server.env,
        'user',
        'change-by-login',
        '--login',
        person.username,
        '--email',
        ADMIN.email,
      ),
      /email already exists/,
    )
  })

  it('refuses bad input with a one-line error and a non-zero exit, changing nothing', async () => {
    const admin = await world.admin()
    const users = async () => (await world.request('GET', '/api/users', { as: admin.as })).body
    const before = await users()
    const add = (login: string, email: string) =>
      flagman(
        server.env,
        'user',
        'add',
        '--login',
        login,
        '--password',
        'pw',
        '--name',
        'N',
        '--email',
        email,
      )

    expectFailure(
      await add(ADMIN.login.toUpperCase(), 'new@example.test'),
      /username already exists/,
    )
    expectFailure(
      await flagman(server.env, 'user', 'change-by-login', '--login', 'nobody', '--password', 'x'),
      /No user with login nobody/,
    )
    expect(await users()).toEqual(before)
  })
})

describe.each(dialects())('flagman migrate on %s', (dialect) => {
  let scratch: ScratchDatabase
  let dataDir: string

  beforeAll(async () => {
    scratch = await createScratchDatabase(dialect)
    dataDir = mkdtempSync(join(tmpdir(), 'flagman-cli-migrate-'))
  })
  afterAll(async () => {
    await scratch?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  it('migrates a fresh database once; then a user added by the CLI signs in to a server on it', async () => {
    const env: NodeJS.ProcessEnv = { ...inheritedEnv(), FLAGMAN_DATA_DIR: dataDir }
    delete env.FLAGMAN_DB
    if (scratch.url) env.FLAGMAN_DB = scratch.url
    const first = await flagman(env, 'migrate')
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(
      /^Applied \d+ migration\(s\): 202611220001_create_users_and_auth, /,
    )
    expect(await flagman(env, 'migrate')).toEqual({
      code: 0,
      stdout: 'The database is up to date\n',
      stderr: '',
    })

    const added = await flagman(
      env,
      'user',
      'add',
      '--login',
      'first',
      '--password',
      'first-pw',
      '--name',
      'First',
      '--email',
      'first@example.test',
      '--admin',
    )
    expect(added.code, added.stderr).toBe(0)
    // A server on a database that already has users creates no other administrator.
    const server = await startTestServer(dialect, {}, { reuse: { scratch, dataDir } })
    try {
      const world = new World(server)
      const as = await world.signIn('first', 'first-pw')
      const me = expectBody(await world.request('GET', '/api/user', { as }), 200, CurrentUser)
      expect(me).toMatchObject({ username: 'first', admin: true })
      expect(
        (
          await world.request('POST', '/api/auth/login', {
            json: { auth: ADMIN.login, password: ADMIN.password },
          })
        ).status,
      ).toBe(401)
    } finally {
      await server.kill?.('SIGTERM')
    }
  })
})
