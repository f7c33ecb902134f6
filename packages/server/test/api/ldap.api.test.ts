import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CurrentUser,
  LoginMetadata,
  Project,
  ProjectRoleInfo,
  SystemInfo,
  TeamMember,
  User,
} from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { escapeFilterValue } from '../../src/modules/auth/ldap.client.js'
import { dialects } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import {
  cookieFrom,
  expectBody,
  expectError,
  expectNoContent,
  type Credentials,
  type HttpResult,
} from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { startSlapd, type Slapd } from '../support/slapd.js'

const PASSWORDS = {
  alice: 'alice-directory-pw',
  bob: 'bob-directory-pw',
  carol: 'carol-directory-pw',
  dave: 'dave-directory-pw',
  eve: 'eve-directory-pw',
  nomail: 'nomail-directory-pw',
}

/** Fresh databases number their first projects 1 and 2; the rules name them by id. */
const APPS = 1
const OPS = 2

let slapd: Slapd
const scratch = mkdtempSync(join(tmpdir(), 'flagman-ldap-test-'))

beforeAll(async () => {
  slapd = await startSlapd({
    users: [
      {
        uid: 'alice',
        password: PASSWORDS.alice,
        mail: 'alice@directory.test',
        cn: 'Alice Liddell',
      },
      { uid: 'bob', password: PASSWORDS.bob, mail: 'bob@directory.test', cn: 'Bob Builder' },
      { uid: 'carol', password: PASSWORDS.carol, mail: 'carol@directory.test', cn: 'Carol Admin' },
      { uid: 'dave', password: PASSWORDS.dave, mail: 'dave@directory.test', cn: 'Dave Local' },
      { uid: 'eve', password: PASSWORDS.eve, mail: 'eve@directory.test', cn: 'Eve Nogroup' },
      { uid: 'nomail', password: PASSWORDS.nomail, cn: 'No Mail' },
    ],
    groups: [
      { cn: 'developers', kind: 'names', members: ['alice'] },
      { cn: 'leads', kind: 'names', members: [] },
      { cn: 'operators', kind: 'uniqueNames', members: ['bob'] },
      { cn: 'admins', kind: 'names', members: ['carol'] },
    ],
  })
})

afterAll(async () => {
  await slapd?.stop()
  rmSync(scratch, { recursive: true, force: true })
})

/** The settings of a server signing in against the test directory. */
function ldapEnv(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    FLAGMAN_LDAP_URL: slapd.url,
    FLAGMAN_LDAP_BIND_DN: slapd.bindDn,
    FLAGMAN_LDAP_BIND_PASSWORD: slapd.bindPassword,
    FLAGMAN_LDAP_SEARCH_BASE: slapd.peopleDn,
    FLAGMAN_LDAP_GROUP_ROLES: JSON.stringify([
      { group: slapd.groupDn('developers'), project_id: APPS, role: 'manager' },
      { group: slapd.groupDn('leads'), project_id: APPS, role: 'owner' },
      { group: slapd.groupDn('operators'), project_id: APPS, role: 'task_runner' },
      { group: slapd.groupDn('operators'), project_id: OPS, role: 'guest' },
      // A project and a group that do not exist are passed over.
      { group: slapd.groupDn('developers'), project_id: 999, role: 'guest' },
      { group: slapd.groupDn('ghosts'), project_id: OPS, role: 'owner' },
      // Written differently from the directory's DN: compared as DNs.
      { group: slapd.groupDn('admins').toUpperCase().replaceAll(',', ', '), admin: true },
    ]),
    ...overrides,
  }
}

function login(world: World, auth: string, password: string): Promise<HttpResult> {
  return world.request('POST', '/api/auth/login', { json: { auth, password } })
}

async function signIn(world: World, auth: string, password: string): Promise<Credentials> {
  const result = await login(world, auth, password)
  expectNoContent(result)
  return { cookie: cookieFrom(result) }
}

function expectRefused(result: HttpResult, status = 401): void {
  expect(result.status, `status (body: ${result.text})`).toBe(status)
  expect(result.headers.get('set-cookie') ?? '').not.toMatch(/semaphore=[^;]/)
}

function expectUnavailable(result: HttpResult): void {
  expectError(result, 424, /LDAP directory can not be reached/)
  expectRefused(result, 424)
}

it('escapes filter values as RFC 4515 says', () => {
  expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a')
  expect(escapeFilterValue('a\\b\0c')).toBe('a\\5cb\\00c')
  expect(escapeFilterValue('alice.o-neil_1')).toBe('alice.o-neil_1')
})

describe.each(dialects())('LDAP sign-in on %s', (dialect) => {
  let server: TestServer
  let world: World
  let apps: Project
  let ops: Project

  beforeAll(async () => {
    server = await startTestServer(dialect, ldapEnv())
    world = new World(server)
    const admin = await world.admin()
    for (const name of ['Apps', 'Ops']) {
      const created = expectBody(
        await world.request('POST', '/api/projects', { as: admin.as, json: { name } }),
        201,
        Project,
      )
      if (name === 'Apps') apps = created
      else ops = created
    }
    expect([apps.id, ops.id]).toEqual([APPS, OPS])
  })
  afterAll(async () => {
    await server?.stop()
  })

  async function me(as: Credentials): Promise<CurrentUser> {
    return expectBody(await world.request('GET', '/api/user', { as }), 200, CurrentUser)
  }

  async function roleIn(projectId: number, userId: number): Promise<string | null> {
    const admin = await world.admin()
    const team = expectBody(
      await world.request('GET', `/api/project/${projectId}/users`, { as: admin.as }),
      200,
      TeamMember.array(),
    )
    return team.find((m) => m.id === userId)?.role ?? null
  }

  it('offers the password form and reports no other method', async () => {
    const metadata = expectBody(await world.request('GET', '/api/auth/login'), 200, LoginMetadata)
    expect(metadata.login_with_password).toBe(true)
    expect(metadata.auth_methods).toEqual({})
    const admin = await world.admin()
    const info = expectBody(
      await world.request('GET', '/api/info', { as: admin.as }),
      200,
      SystemInfo,
    )
    expect(info.auth_methods).toEqual({})
    expect(JSON.stringify([metadata, info])).not.toContain(slapd.bindPassword)
  })

  it('creates the directory user as an external user in the project their group maps to', async () => {
    const as = await signIn(world, 'alice', PASSWORDS.alice)
    const user = await me(as)
    expect(user).toMatchObject({
      username: 'alice',
      name: 'Alice Liddell',
      email: 'alice@directory.test',
      external: true,
      admin: false,
    })
    const projects = expectBody(
      await world.request('GET', '/api/projects', { as }),
      200,
      Project.array(),
    )
    expect(projects.map((p) => p.id)).toEqual([APPS])
    const role = expectBody(
      await world.request('GET', `/api/project/${APPS}/role`, { as }),
      200,
      ProjectRoleInfo,
    )
    expect(role.role).toBe('manager')

    // Signing in again finds the same user; the login is matched ignoring case.
    const again = await signIn(world, 'ALICE', PASSWORDS.alice)
    expect((await me(again)).id).toBe(user.id)

    // External users have no password of their own.
    expectError(
      await world.request('POST', `/api/users/${user.id}/password`, {
        as,
        json: { password: 'local-password', current_password: PASSWORDS.alice },
      }),
      400,
    )
  })

  it('reads groupOfUniqueNames members and gives each project its own role', async () => {
    const as = await signIn(world, 'bob', PASSWORDS.bob)
    const bob = await me(as)
    expect(await roleIn(APPS, bob.id)).toBe('task_runner')
    expect(await roleIn(OPS, bob.id)).toBe('guest')
  })

  it('changes the role when the groups change, the highest role winning', async () => {
    const alice = await me(await signIn(world, 'alice', PASSWORDS.alice))
    await slapd.addMember('leads', 'alice')
    await signIn(world, 'alice', PASSWORDS.alice)
    expect(await roleIn(APPS, alice.id)).toBe('owner')
    await slapd.removeMember('leads', 'alice')
    await signIn(world, 'alice', PASSWORDS.alice)
    expect(await roleIn(APPS, alice.id)).toBe('manager')
  })

  it('removes the membership when the group membership goes, and only that one', async () => {
    const as = await signIn(world, 'alice', PASSWORDS.alice)
    const alice = await me(as)
    // Added by hand: the mapping leaves it alone.
    await world.addMember(OPS, alice.id, 'guest')
    await slapd.removeMember('developers', 'alice')
    try {
      const after = await signIn(world, 'alice', PASSWORDS.alice)
      expect(await roleIn(APPS, alice.id)).toBeNull()
      expect(await roleIn(OPS, alice.id)).toBe('guest')
      expectError(await world.request('GET', `/api/project/${APPS}/role`, { as: after }), 404)
    } finally {
      await slapd.addMember('developers', 'alice')
    }
    await signIn(world, 'alice', PASSWORDS.alice)
    expect(await roleIn(APPS, alice.id)).toBe('manager')
    expect(await roleIn(OPS, alice.id)).toBe('guest')
  })

  it('makes members of an admin group administrators, and takes it back when they leave it', async () => {
    const as = await signIn(world, 'carol', PASSWORDS.carol)
    const carol = await me(as)
    expect(carol.admin).toBe(true)
    await slapd.removeMember('admins', 'carol')
    try {
      await signIn(world, 'carol', PASSWORDS.carol)
      expect((await me(as)).admin).toBe(false)
    } finally {
      await slapd.addMember('admins', 'carol')
    }
    await signIn(world, 'carol', PASSWORDS.carol)
    expect((await me(as)).admin).toBe(true)
  })

  it('keeps an admin flag given by hand', async () => {
    const as = await signIn(world, 'eve', PASSWORDS.eve)
    const eve = await me(as)
    expect(eve.admin).toBe(false)
    const admin = await world.admin()
    expectNoContent(
      await world.request('PUT', `/api/users/${eve.id}`, {
        as: admin.as,
        json: { username: eve.username, name: eve.name, email: eve.email, admin: true },
      }),
    )
    await signIn(world, 'eve', PASSWORDS.eve)
    expect((await me(as)).admin).toBe(true)
  })

  it('finds nothing for logins that try to inject filter syntax', async () => {
    for (const auth of ['*)(uid=*', '*', 'alic*', 'alice)(|(uid=*', '\\2a']) {
      expectRefused(await login(world, auth, PASSWORDS.alice))
    }
  })

  it('refuses a wrong password, an unknown login and an entry without an email', async () => {
    expectRefused(await login(world, 'alice', 'not-the-password'))
    expectRefused(await login(world, 'nobody-here', 'whatever'))
    const result = await login(world, 'nomail', PASSWORDS.nomail)
    expectError(result, 400, /no "mail" attribute/)
    expectRefused(result, 400)
  })

  it('signs local users in by password when the directory does not know them', async () => {
    const admin = await world.admin()
    const local = await world.createUser({ password: 'local-user-pw' })
    await signIn(world, local.username, 'local-user-pw')
    await signIn(world, admin.username, admin.password)
  })

  it('refuses a directory account whose name belongs to a local user with a password', async () => {
    await world.createUser({ username: 'dave', password: 'dave-local-pw' })
    expectRefused(await login(world, 'dave', PASSWORDS.dave))
    // The directory knows the login, so the local password is not tried either.
    expectRefused(await login(world, 'dave', 'dave-local-pw'))
  })

  it('never shows the bind password or user passwords in events', async () => {
    const admin = await world.admin()
    const events = await world.request('GET', '/api/events', { as: admin.as })
    expect(events.status).toBe(200)
    expect(events.text).toMatch(/LDAP group mapping/)
    for (const secret of [slapd.bindPassword, ...Object.values(PASSWORDS)]) {
      expect(events.text).not.toContain(secret)
    }
  })

  describe('connections', () => {
    const started: TestServer[] = []
    async function serverWith(env: Record<string, string>): Promise<World> {
      const other = await startTestServer(dialect, ldapEnv(env))
      started.push(other)
      return new World(other)
    }
    afterAll(async () => {
      await Promise.all(started.map((s) => s.stop()))
    })

    it('uses ldaps:// with the configured authority and refuses other certificates', async () => {
      const [trusted, untrusted, wrongCa] = await Promise.all([
        serverWith({ FLAGMAN_LDAP_URL: slapd.ldapsUrl, FLAGMAN_LDAP_CA_FILE: slapd.caFile }),
        serverWith({ FLAGMAN_LDAP_URL: slapd.ldapsUrl }),
        serverWith({ FLAGMAN_LDAP_URL: slapd.ldapsUrl, FLAGMAN_LDAP_CA_FILE: slapd.otherCaFile }),
      ])
      const as = await signIn(trusted, 'alice', PASSWORDS.alice)
      const user = expectBody(await trusted.request('GET', '/api/user', { as }), 200, User)
      expect(user.external).toBe(true)
      expectUnavailable(await login(untrusted, 'alice', PASSWORDS.alice))
      expectUnavailable(await login(wrongCa, 'alice', PASSWORDS.alice))
    })

    it('upgrades ldap:// with StartTLS, verifying the certificate', async () => {
      const [trusted, untrusted] = await Promise.all([
        serverWith({ FLAGMAN_LDAP_START_TLS: 'true', FLAGMAN_LDAP_CA_FILE: slapd.caFile }),
        serverWith({ FLAGMAN_LDAP_START_TLS: 'true', FLAGMAN_LDAP_CA_FILE: slapd.otherCaFile }),
      ])
      await signIn(trusted, 'bob', PASSWORDS.bob)
      expectUnavailable(await login(untrusted, 'bob', PASSWORDS.bob))
    })

    it('says so when the directory is down, and local accounts still sign in', async () => {
      const down = await serverWith({ FLAGMAN_LDAP_URL: 'ldap://127.0.0.1:1' })
      expectUnavailable(await login(down, 'alice', PASSWORDS.alice))
      await signIn(down, 'admin', (await down.admin()).password)
    })

    it('says so when the directory refuses the service account', async () => {
      const wrong = await serverWith({ FLAGMAN_LDAP_BIND_PASSWORD: 'not-the-bind-password' })
      expectUnavailable(await login(wrong, 'alice', PASSWORDS.alice))
    })

    it('reads the bind password from a file', async () => {
      const file = join(scratch, `bind-${dialect}`)
      writeFileSync(file, `${slapd.bindPassword}\n`, { mode: 0o600 })
      const env = ldapEnv({ FLAGMAN_LDAP_BIND_PASSWORD_FILE: file })
      delete env.FLAGMAN_LDAP_BIND_PASSWORD
      const other = await startTestServer(dialect, env)
      started.push(other)
      await signIn(new World(other), 'alice', PASSWORDS.alice)
    })
  })
})

describe('LDAP settings', () => {
  async function startError(env: Record<string, string>): Promise<string> {
    try {
      const server = await startTestServer('sqlite', env)
      await server.stop()
    } catch (error) {
      return String(error)
    }
    throw new Error('the server started')
  }

  it('refuses to start with invalid settings, naming the setting', async () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ FLAGMAN_LDAP_URL: 'http://127.0.0.1:389' }, /FLAGMAN_LDAP_URL: expected ldap:\/\//],
      [
        ldapEnv({ FLAGMAN_LDAP_GROUP_ROLES: '[{"group":"cn=x","role":"boss","project_id":1}]' }),
        /FLAGMAN_LDAP_GROUP_ROLES/,
      ],
      [
        ldapEnv({ FLAGMAN_LDAP_GROUP_ROLES: 'not json' }),
        /FLAGMAN_LDAP_GROUP_ROLES: not valid JSON/,
      ],
      [
        ldapEnv({ FLAGMAN_LDAP_SEARCH_FILTER: '(uid=alice)' }),
        /FLAGMAN_LDAP_SEARCH_FILTER: must contain %s/,
      ],
      [
        ldapEnv({ FLAGMAN_LDAP_ATTRIBUTES: '{"mail":"mail","phone":"x"}' }),
        /FLAGMAN_LDAP_ATTRIBUTES/,
      ],
      [
        ldapEnv({ FLAGMAN_LDAP_CA_FILE: join(scratch, 'missing.pem') }),
        /FLAGMAN_LDAP_CA_FILE: can not read/,
      ],
      [
        ldapEnv({ FLAGMAN_LDAP_URL: slapd.ldapsUrl, FLAGMAN_LDAP_START_TLS: 'true' }),
        /FLAGMAN_LDAP_START_TLS/,
      ],
      [{ FLAGMAN_LDAP_SEARCH_BASE: 'dc=x' }, /FLAGMAN_LDAP_SEARCH_BASE: LDAP sign-in is off/],
    ]
    for (const [env, message] of cases) {
      const error = await startError(env)
      expect(error).toMatch(message)
      expect(error).not.toContain(slapd.bindPassword)
    }
  })
})
