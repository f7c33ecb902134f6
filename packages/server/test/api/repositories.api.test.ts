import { Event, Project, ProjectBackup, Repository, type AccessKey } from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpOptions } from '../support/http.js'
import {
  castFor,
  expectRefused,
  insertTemplate,
  malformedBodies,
  ProjectResources,
  projectRows,
  type Cast,
} from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe.each(dialects())('repositories on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let p: ProjectResources
  let key: AccessKey
  let cast: Cast

  beforeAll(async () => {
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    const project = await world.newProject()
    p = new ProjectResources(world.request.bind(world), admin.as, project.id)
    key = await p.loginPasswordKey(unique('git'), 'git-token')
    cast = await castFor(world, project.id)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  function body(fields: Record<string, unknown> = {}) {
    return {
      name: unique('repo'),
      project_id: p.projectId,
      git_url: 'https://example.test/app.git',
      git_branch: 'main',
      ssh_key_id: key.id,
      ...fields,
    }
  }

  async function rows(): Promise<string> {
    return projectRows(db, 'repository', p.projectId)
  }

  it('creates, reads, lists, updates and deletes a repository', async () => {
    const name = unique('crud')
    const created = await p.repository(name, key.id, { git_url: 'git@example.test:org/app.git' })
    expect(created).toEqual({
      id: expect.any(Number),
      name,
      project_id: p.projectId,
      git_url: 'git@example.test:org/app.git',
      git_branch: 'main',
      ssh_key_id: key.id,
    })
    expect(await p.get(`/repositories/${created.id}`, Repository)).toEqual(created)
    expect(await p.list('/repositories', Repository)).toContainEqual(created)

    const other = await p.key(unique('other'))
    const changed = {
      id: created.id,
      project_id: p.projectId,
      name: unique('changed'),
      git_url: 'https://example.test/other.git',
      git_branch: 'release',
      ssh_key_id: other.id,
    }
    expectNoContent(await p.request('PUT', `/repositories/${created.id}`, changed))
    expect(await p.get(`/repositories/${created.id}`, Repository)).toEqual(changed)

    expectNoContent(await p.request('DELETE', `/repositories/${created.id}`))
    expectError(await p.request('GET', `/repositories/${created.id}`), 404)
    expect((await p.list('/repositories', Repository)).map((r) => r.id)).not.toContain(created.id)
    const events = (await p.list('/events', Event)).map((e) => e.description)
    expect(events).toEqual(
      expect.arrayContaining([
        'Repository git@example.test:org/app.git created',
        'Repository https://example.test/other.git updated',
        'Repository https://example.test/other.git deleted',
      ]),
    )
  })

  it('accepts local paths, scp-like SSH and the git, file, ssh, http and https schemes', async () => {
    const accepted: Array<[string, string]> = [
      ['/srv/git/app', ''],
      ['/srv/git/app', 'develop'],
      ['git@github.com:org/app.git', 'main'],
      ['example.test:app.git', 'main'],
      ['ssh://git@example.test:2222/org/app.git', 'main'],
      ['git://example.test/app.git', 'main'],
      ['file:///srv/git/app.git', 'main'],
      ['http://example.test/app.git', 'main'],
      ['https://user@example.test/app.git', 'main'],
      ['HTTPS://EXAMPLE.TEST/APP.GIT', 'main'],
    ]
    for (const [url, branch] of accepted) {
      const repo = await p.repository(unique('ok'), key.id, { git_url: url, git_branch: branch })
      expect([repo.git_url, repo.git_branch]).toEqual([url, branch])
    }
    // A local repository needs no branch at all.
    const local = await p.repository(unique('local'), key.id, {
      git_url: '/srv/x',
      git_branch: undefined,
    })
    expect(local.git_branch).toBe('')
  })

  it('trims the URL, the branch and the name', async () => {
    const name = unique('trim')
    const repo = await p.repository(`  ${name} `, key.id, {
      git_url: '  https://example.test/trim.git \n',
      git_branch: '\t main  ',
    })
    expect(repo).toMatchObject({
      name,
      git_url: 'https://example.test/trim.git',
      git_branch: 'main',
    })
    const stored = await db.kysely
      .selectFrom('repository')
      .select(['name', 'git_url', 'git_branch'])
      .where('id', '=', repo.id)
      .executeTakeFirstOrThrow()
    expect(stored).toEqual({ name, git_url: repo.git_url, git_branch: 'main' })
  })

  it('refuses URLs it can not recognise and missing branches, storing nothing', async () => {
    const before = await rows()
    const refused: Array<[Record<string, unknown>, RegExp]> = [
      [{ git_url: 'ftp://example.test/app.git' }, /^Incorrect URL/],
      [{ git_url: 'not a url' }, /^Incorrect URL/],
      [{ git_url: 'relative/path' }, /^Incorrect URL/],
      [{ git_url: 'https://' }, /^Incorrect URL/],
      [{ git_url: '' }, /^repository url can't be empty$/],
      [{ git_url: '   ' }, /^repository url can't be empty$/],
      [{ git_url: undefined }, /git_url is required/],
      [{ git_branch: '' }, /^repository branch can't be empty$/],
      [{ git_branch: '   ' }, /^repository branch can't be empty$/],
      [{ git_branch: undefined }, /^repository branch can't be empty$/],
      [{ git_url: 'git@example.test:app.git', git_branch: '' }, /branch can't be empty/],
      [{ name: '' }, /^repository name can't be empty$/],
      [{ name: 'n'.repeat(256) }, /at most 255 characters/],
      [{ git_branch: 'b'.repeat(256) }, /at most 255 characters/],
      [{ ssh_key_id: undefined }, /^ssh_key_id is required$/],
      [{ ssh_key_id: 'one' }, /^ssh_key_id must be a number$/],
    ]
    for (const [fields, message] of refused) {
      expectError(await p.request('POST', '/repositories', body(fields)), 400, message)
    }
    expect(await rows()).toBe(before)
  })

  it('refuses a key of another project or an environment secret as 404, storing nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreign = await q.key(unique('foreign'))
    const env = await p.environment(unique('env'), {
      secrets: [{ operation: 'create', name: 'TOKEN', secret: 's3cr3t', type: 'var' }],
    })
    const secretId = env.secrets?.[0]?.id ?? 0
    const repo = await p.repository(unique('mine'), key.id)
    const before = await rows()
    for (const id of [foreign.id, secretId, 999_999_999]) {
      expectError(
        await p.request('POST', '/repositories', body({ ssh_key_id: id })),
        404,
        'Access key not found',
      )
      expectError(
        await p.request('PUT', `/repositories/${repo.id}`, {
          ...body({ ssh_key_id: id }),
          id: repo.id,
        }),
        404,
      )
    }
    expect(await rows()).toBe(before)
    expect(await projectRows(db, 'repository', project.id)).toBe('[]')
  })

  it('insists that ids in the body match the URL and validates updates', async () => {
    const repo = await p.repository(unique('ids'), key.id)
    const before = await rows()
    const other = await world.newProject()
    const update = { ...body({ name: unique('never') }), id: repo.id }
    expectError(
      await p.request('POST', '/repositories', body({ project_id: other.id })),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/repositories/${repo.id}`, { ...update, id: repo.id + 1 }),
      400,
      'Repository ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/repositories/${repo.id}`, { ...update, project_id: other.id }),
      400,
      'Project ID in body and URL must be the same',
    )
    expectError(
      await p.request('PUT', `/repositories/${repo.id}`, { ...update, git_url: 'ftp://x' }),
      400,
      /^Incorrect URL/,
    )
    expectError(
      await p.request('PUT', `/repositories/${repo.id}`, { ...update, git_branch: '' }),
      400,
      "repository branch can't be empty",
    )
    expect(await rows()).toBe(before)
  })

  it('refuses a URL with a password on create and update, writing nothing', async () => {
    const repo = await p.repository(unique('pw'), key.id)
    const before = [await rows(), await projectRows(db, 'event', p.projectId)]
    const message =
      'Incorrect URL: put the password in a key of the key store (login with password) instead of the URL'
    for (const url of [
      'https://user:SECRET-1@example.test/app.git',
      'http://user:SECRET-1@example.test:8080/app.git',
      'ssh://git:SECRET-1@example.test/app.git',
      'HTTPS://:SECRET-1@example.test/app.git',
      '  https://user:SECRET-1@example.test/app.git  ',
    ]) {
      expectError(await p.request('POST', '/repositories', body({ git_url: url })), 400, message)
      expectError(
        await p.request('PUT', `/repositories/${repo.id}`, {
          ...body({ git_url: url }),
          id: repo.id,
        }),
        400,
        message,
      )
    }
    expect([await rows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
    expect(before.join('')).not.toContain('SECRET-1')

    // A user name alone carries no secret.
    for (const url of [
      'https://deploy@example.test/app.git',
      'ssh://git@example.test/org/app.git',
      'git@example.test:org/app.git',
    ]) {
      const accepted = await p.repository(unique('user'), key.id, { git_url: url })
      expect(accepted.git_url).toBe(url)
    }
  })

  it('answers a URL stored with a password without it and keeps the password on update', async () => {
    const stored = 'https://deploy:OLD-SECRET@example.test/old.git'
    const id = await insertReturningId({ kysely: db.kysely, dialect: db.dialect }, 'repository', {
      project_id: p.projectId,
      name: unique('old'),
      git_url: stored,
      git_branch: 'main',
      ssh_key_id: key.id,
      created: nowIso(),
    })
    const storedUrl = async () =>
      (
        await db.kysely
          .selectFrom('repository')
          .select('git_url')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).git_url

    const answered = await p.get(`/repositories/${id}`, Repository)
    expect(answered.git_url).toBe('https://deploy@example.test/old.git')
    const listed = await p.request('GET', '/repositories')
    expect(listed.status).toBe(200)
    expect(listed.text).not.toContain('OLD-SECRET')
    expect(listed.text).toContain('https://deploy@example.test/old.git')
    const backup = await p.request('GET', '/backup')
    expect(backup.status).toBe(200)
    expect(backup.text).not.toContain('OLD-SECRET')
    expect(backup.text).toContain('https://deploy@example.test/old.git')

    // The console sends the repository back as it was answered: the password stays.
    const renamed = { ...answered, name: unique('renamed') }
    expectNoContent(await p.request('PUT', `/repositories/${id}`, renamed))
    expect(await storedUrl()).toBe(stored)
    expect(await p.get(`/repositories/${id}`, Repository)).toEqual(renamed)

    // Another URL replaces the stored one, password and all.
    const moved = { ...renamed, git_url: 'https://deploy@example.test/new.git' }
    expectNoContent(await p.request('PUT', `/repositories/${id}`, moved))
    expect(await storedUrl()).toBe('https://deploy@example.test/new.git')

    expectNoContent(await p.request('DELETE', `/repositories/${id}`))
    const events = await p.request('GET', '/events')
    expect(events.text).not.toContain('OLD-SECRET')
    expect(expectBody(events, 200, z.array(Event)).map((e) => e.description)).toEqual(
      expect.arrayContaining([
        'Repository https://deploy@example.test/old.git updated',
        'Repository https://deploy@example.test/new.git deleted',
      ]),
    )
  })

  describe('restoring a backup', () => {
    function backupWith(repository: Record<string, unknown>) {
      return {
        meta: { name: unique('restored') },
        keys: [{ name: 'None', type: 'none' }],
        repositories: [
          {
            name: 'repo',
            git_url: 'https://example.test/app.git',
            git_branch: 'main',
            ssh_key: 'None',
            ...repository,
          },
        ],
        templates: [{ name: 'tpl', app: 'ansible', playbook: 'site.yml', repository: 'repo' }],
      }
    }
    const restore = (json: unknown) =>
      world.request('POST', '/api/projects/restore', { as: admin.as, json })
    /** Every row a restore writes. */
    const projects = async () => {
      const parts: string[] = []
      for (const table of ['project', 'access_key', 'repository', 'template', 'event'] as const) {
        const rows = await db.kysely.selectFrom(table).selectAll().orderBy('id').execute()
        parts.push(JSON.stringify(rows))
      }
      return parts.join('\n')
    }

    it('drops the password of a URL and keeps the user name', async () => {
      const restored = expectBody(
        await restore(backupWith({ git_url: 'https://deploy:FILE-SECRET@example.test/app.git' })),
        200,
        Project,
      )
      const q = new ProjectResources(world.request.bind(world), admin.as, restored.id)
      const [repo] = await q.list('/repositories', Repository)
      expect(repo?.git_url).toBe('https://deploy@example.test/app.git')
      expect(await projectRows(db, 'repository', restored.id)).not.toContain('FILE-SECRET')
      expect(await projectRows(db, 'event', restored.id)).not.toContain('FILE-SECRET')
    })

    it('refuses a URL or branch git could read as an option, writing nothing', async () => {
      const before = await projects()
      const refused: Array<[Record<string, unknown>, RegExp]> = [
        [{ git_url: '--upload-pack=true' }, /repository "repo" has an incorrect URL/],
        [{ git_url: 'ext::sh -c true' }, /repository "repo" has an incorrect URL/],
        [{ git_url: 'ssh://-oProxyCommand=x/repo' }, /repository "repo" has an incorrect URL/],
        [{ git_url: '' }, /repository "repo" has an incorrect URL/],
        [{ git_branch: '--upload-pack=x' }, /repository "repo" has an incorrect branch/],
        [{ git_url: `https://example.test/${'x'.repeat(2100)}` }, /repository url is too long/],
        [{ git_branch: 'b'.repeat(256) }, /repositories\.0\.git_branch.*at most 255/],
      ]
      for (const [fields, message] of refused) {
        expectError(await restore(backupWith(fields)), 400, message)
      }
      const long = backupWith({})
      const tooLong: Array<[Record<string, unknown>, RegExp]> = [
        [{ start_version: 'v'.repeat(256) }, /templates\.0\.start_version.*at most 255/],
        [{ git_branch: 'b'.repeat(256) }, /templates\.0\.git_branch.*at most 255/],
        [{ app: 'a'.repeat(65) }, /templates\.0\.app.*at most 64/],
        [
          { vaults: [{ name: 'n'.repeat(256), type: 'password' }] },
          /templates\.0\.vaults\.0\.name.*at most 255/,
        ],
      ]
      for (const [fields, message] of tooLong) {
        const file = { ...long, templates: [{ ...long.templates[0], ...fields }] }
        expectError(await restore(file), 400, message)
      }
      expect(await projects()).toBe(before)
    })

    it('restores what it exports', async () => {
      const file = backupWith({ git_url: 'git@example.test:org/app.git' })
      const restored = expectBody(await restore(file), 200, Project)
      const exported = expectBody(
        await world.request('GET', `/api/project/${restored.id}/backup`, { as: admin.as }),
        200,
        ProjectBackup,
      )
      expect(exported.repositories).toEqual([file.repositories[0]])
    })
  })

  it('sorts by name, URL or key name, and falls back to the name', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const keyB = await q.key('b-key')
    const keyA = await q.key('a-key')
    const r1 = await q.repository('r1', keyB.id, { git_url: 'https://c.example.test/x.git' })
    const r2 = await q.repository('r2', keyA.id, { git_url: 'https://a.example.test/x.git' })
    const r3 = await q.repository('r3', keyB.id, { git_url: 'https://b.example.test/x.git' })
    const ids = async (query: string) =>
      (await q.list(`/repositories${query}`, Repository)).map((r) => r.id)
    expect(await ids('')).toEqual([r1.id, r2.id, r3.id])
    expect(await ids('?sort=name&order=desc')).toEqual([r3.id, r2.id, r1.id])
    expect(await ids('?sort=git_url')).toEqual([r2.id, r3.id, r1.id])
    expect(await ids('?sort=git_url&order=desc')).toEqual([r1.id, r3.id, r2.id])
    expect(await ids('?sort=ssh_key')).toEqual([r2.id, r1.id, r3.id])
    expect(await ids('?sort=ssh_key&order=desc')).toEqual([r1.id, r3.id, r2.id])
    expect(await ids('?sort=whatever')).toEqual([r1.id, r2.id, r3.id])
    expect(await ids('?sort=whatever&order=desc')).toEqual([r3.id, r2.id, r1.id])
  })

  it('lists what uses a repository and refuses to delete it while it is used', async () => {
    const repo = await p.repository(unique('used'), key.id)
    const inv = await p.inventory(unique('inv'), key.id, {
      type: 'file',
      inventory: 'hosts.ini',
      repository_id: repo.id,
    })
    const template = unique('tpl')
    const templateId = await insertTemplate(db, p.projectId, {
      name: template,
      repository_id: repo.id,
    })
    await db.kysely
      .insertInto('schedule')
      .values({
        project_id: p.projectId,
        template_id: templateId,
        repository_id: repo.id,
        cron_format: '* * * * *',
        created: nowIso(),
      })
      .execute()
    expect(await p.refs(`/repositories/${repo.id}`)).toEqual({
      templates: [{ id: templateId, name: template }],
      inventories: [{ id: inv.id, name: inv.name }],
      repositories: [],
      integrations: [],
      // A schedule is shown by its template, which is what the console links to.
      schedules: [{ id: templateId, name: template }],
    })
    const before = await rows()
    const refused = await p.request('DELETE', `/repositories/${repo.id}`)
    expect(refused.status).toBe(400)
    expect(refused.body).toEqual({
      error: 'Repository is in use by one or more templates',
      inUse: true,
    })
    expect(await rows()).toBe(before)

    // The key the repository uses is referenced by it in turn.
    expect((await p.refs(`/keys/${key.id}`)).repositories).toContainEqual({
      id: repo.id,
      name: repo.name,
    })

    const unused = await p.repository(unique('unused'), key.id)
    expect(await p.refs(`/repositories/${unused.id}`)).toEqual({
      templates: [],
      inventories: [],
      repositories: [],
      integrations: [],
      schedules: [],
    })
    expectNoContent(await p.request('DELETE', `/repositories/${unused.id}`))
    expectError(await p.request('GET', `/repositories/${unused.id}`), 404)
  })

  it('answers 404 for a repository of another project and changes nothing', async () => {
    const project = await world.newProject()
    const q = new ProjectResources(world.request.bind(world), admin.as, project.id)
    const foreignKey = await q.key(unique('fk'))
    const foreign = await q.repository(unique('foreign'), foreignKey.id)
    const before = await projectRows(db, 'repository', project.id)
    const update = { ...body(), id: foreign.id }
    for (const [method, path, json] of [
      ['GET', `/repositories/${foreign.id}`, undefined],
      ['GET', `/repositories/${foreign.id}/refs`, undefined],
      ['PUT', `/repositories/${foreign.id}`, update],
      ['DELETE', `/repositories/${foreign.id}`, undefined],
    ] as const) {
      expectError(await p.request(method, path, json), 404)
    }
    expect(await projectRows(db, 'repository', project.id)).toBe(before)
  })

  it('lets every member read repositories but only managers and owners change them', async () => {
    const repo = await p.repository(unique('perm'), key.id)
    const before = await rows()
    const reads = ['/repositories', `/repositories/${repo.id}`, `/repositories/${repo.id}/refs`]
    const writes = [
      ['POST', '/repositories', body()],
      ['PUT', `/repositories/${repo.id}`, { ...body(), id: repo.id }],
      ['DELETE', `/repositories/${repo.id}`, undefined],
    ] as const
    for (const role of ['guest', 'task_runner'] as const) {
      const as = cast[role].as
      for (const path of reads) {
        expect((await world.request('GET', `${p.base}${path}`, { as })).status).toBe(200)
      }
      for (const [method, path, json] of writes) {
        expectError(await world.request(method, `${p.base}${path}`, { as, json }), 403)
      }
    }
    const outsider = cast.outsider.as
    for (const path of reads) {
      expectError(await world.request('GET', `${p.base}${path}`, { as: outsider }), 404)
    }
    for (const [method, path, json] of writes) {
      expectError(await world.request(method, `${p.base}${path}`, { as: outsider, json }), 404)
    }
    expect(await rows()).toBe(before)
    const managed = await world.request('POST', `${p.base}/repositories`, {
      as: cast.manager.as,
      json: body(),
    })
    expectBody(managed, 201, Repository)
    const guestList = await world.request('GET', `${p.base}/repositories`, { as: cast.guest.as })
    expect(expectBody(guestList, 200, z.array(Repository)).map((r) => r.id)).toContain(repo.id)
  })
  it('refuses malformed, mistyped and out-of-range input with a 4xx and writes nothing', async () => {
    const repo = await p.repository(unique('bad'), key.id)
    const before = [await rows(), await projectRows(db, 'event', p.projectId)]
    const valid = body()
    const update = { ...valid, id: repo.id }
    const mistyped: Array<Record<string, unknown>> = [
      { git_url: 42 },
      { git_url: null },
      { git_url: ['https://example.test/a.git'] },
      { git_url: `https://example.test/${'x'.repeat(2100)}.git` },
      { git_branch: 7 },
      { git_branch: null },
      { ssh_key_id: '1' },
      { ssh_key_id: 1.5 },
      { ssh_key_id: null },
      { ssh_key_id: 0 },
      { ssh_key_id: -1 },
      { ssh_key_id: 2_147_483_648 },
      { ssh_key_id: 99_999_999_999 },
      { ssh_key_id: 1e300 },
    ]
    const cases: Array<[string, string, string, HttpOptions]> = [
      ...malformedBodies(valid).map(
        ([label, options]) =>
          [`POST ${label}`, 'POST', '/repositories', options] as [
            string,
            string,
            string,
            HttpOptions,
          ],
      ),
      ...malformedBodies(update).map(
        ([label, options]) =>
          [`PUT ${label}`, 'PUT', `/repositories/${repo.id}`, options] as [
            string,
            string,
            string,
            HttpOptions,
          ],
      ),
      ...mistyped.map(
        (fields) =>
          [
            `POST ${JSON.stringify(fields).slice(0, 60)}`,
            'POST',
            '/repositories',
            { json: { ...valid, ...fields } },
          ] as [string, string, string, HttpOptions],
      ),
      ...mistyped.map(
        (fields) =>
          [
            `PUT ${JSON.stringify(fields).slice(0, 60)}`,
            'PUT',
            `/repositories/${repo.id}`,
            { json: { ...update, ...fields } },
          ] as [string, string, string, HttpOptions],
      ),
      [
        'PUT id as text',
        'PUT',
        `/repositories/${repo.id}`,
        { json: { ...update, id: String(repo.id) } },
      ],
      [
        'PUT huge id',
        'PUT',
        `/repositories/${repo.id}`,
        { json: { ...update, id: 99_999_999_999 } },
      ],
    ]
    for (const path of ['abc', '-1', '1.5', '0', '99999999999', '2147483648', '1e3']) {
      cases.push([`GET /repositories/${path}`, 'GET', `/repositories/${path}`, {}])
      cases.push([`PUT /repositories/${path}`, 'PUT', `/repositories/${path}`, { json: update }])
      cases.push([`DELETE /repositories/${path}`, 'DELETE', `/repositories/${path}`, {}])
      cases.push([`GET /repositories/${path}/refs`, 'GET', `/repositories/${path}/refs`, {}])
    }
    for (const [label, method, path, options] of cases) {
      const result = await world.request(method, `${p.base}${path}`, { as: admin.as, ...options })
      expectRefused(result, label)
    }
    expect([await rows(), await projectRows(db, 'event', p.projectId)]).toEqual(before)
  })
})
