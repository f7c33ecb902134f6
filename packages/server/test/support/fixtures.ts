import { join } from 'node:path'
import { ApiToken, Project, User, type ProjectRole } from '@flagman/contract'
import { createDb, parseDbUrl, type Db } from '@flagman/db'
import {
  cookieFrom,
  expectBody,
  expectNoContent,
  http,
  type Credentials,
  type HttpOptions,
  type HttpResult,
} from './http.js'
import { ADMIN, type TestServer } from './server.js'

/** A user of the test server together with the credentials to act as them. */
export interface Person {
  id: number
  username: string
  name: string
  email: string
  password: string
  /** Signed in by password: a session cookie. */
  as: Credentials
}

export interface NewUserOptions {
  username?: string
  name?: string
  email?: string
  password?: string
  admin?: boolean
}

let counter = 0

/** A short name unique within this test process; lower case so it sorts alike everywhere. */
export function unique(prefix: string): string {
  counter += 1
  return `${prefix}${counter.toString().padStart(3, '0')}`
}

/**
 * Builds what tests need on one server: users (signed in once each, since every sign-in
 * costs a slow password hash), projects and memberships, all through the public API.
 */
export class World {
  private adminPerson: Promise<Person> | undefined

  constructor(readonly server: TestServer) {}

  request(method: string, path: string, options: HttpOptions = {}): Promise<HttpResult> {
    return http(this.server.url, method, path, options)
  }

  /** Signs in by password and returns the session cookie. */
  async signIn(auth: string, password: string): Promise<Credentials> {
    const result = await this.request('POST', '/api/auth/login', { json: { auth, password } })
    expectNoContent(result)
    return { cookie: cookieFrom(result) }
  }

  /** The first administrator, signed in once. */
  admin(): Promise<Person> {
    this.adminPerson ??= (async () => {
      const as = await this.signIn(ADMIN.login, ADMIN.password)
      const me = await this.request('GET', '/api/user', { as })
      const user = expectBody(me, 200, User)
      return { ...user, password: ADMIN.password, as }
    })()
    return this.adminPerson
  }

  /** Creates a user through the admin API without signing in. */
  async createUser(options: NewUserOptions = {}): Promise<Omit<Person, 'as'>> {
    const username = options.username ?? unique('user')
    const input = {
      username,
      name: options.name ?? `Name of ${username}`,
      email: options.email ?? `${username}@example.test`,
      password: options.password ?? `password-${username}`,
      admin: options.admin ?? false,
    }
    const admin = await this.admin()
    const created = expectBody(
      await this.request('POST', '/api/users', { as: admin.as, json: input }),
      201,
      User,
    )
    return { id: created.id, ...input }
  }

  /** Creates a user and signs them in. */
  async newUser(options: NewUserOptions = {}): Promise<Person> {
    const user = await this.createUser(options)
    return { ...user, as: await this.signIn(user.username, user.password) }
  }

  /** An API token of the given person. */
  async token(person: Person): Promise<string> {
    const result = await this.request('POST', '/api/user/tokens', { as: person.as })
    return expectBody(result, 201, ApiToken).id
  }

  /**
   * Creates a project. With an `owner` other than the admin, the admin creates it, makes
   * that person owner and leaves, so the admin is not a member afterwards.
   */
  async newProject(owner?: Person, name = unique('project')): Promise<Project> {
    const admin = await this.admin()
    const project = expectBody(
      await this.request('POST', '/api/projects', { as: admin.as, json: { name } }),
      201,
      Project,
    )
    if (owner && owner.id !== admin.id) {
      await this.addMember(project.id, owner.id, 'owner')
      expectNoContent(
        await this.request('DELETE', `/api/project/${project.id}/users/${admin.id}`, {
          as: admin.as,
        }),
      )
    }
    return project
  }

  /** Adds a member, acting as the admin. */
  async addMember(projectId: number, userId: number, role: ProjectRole): Promise<void> {
    const admin = await this.admin()
    expectNoContent(
      await this.request('POST', `/api/project/${projectId}/users`, {
        as: admin.as,
        json: { user_id: userId, role },
      }),
    )
  }

  /** Opens the server's database directly (close it with `destroy()`). */
  openDb(): Promise<Db> {
    return createDb(
      parseDbUrl(this.server.env.FLAGMAN_DB, join(this.server.dataDir, 'flagman.sqlite')),
    )
  }
}
