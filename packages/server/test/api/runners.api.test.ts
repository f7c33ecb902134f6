import { createHash, createPrivateKey, createPublicKey } from 'node:crypto'
import { CreatedRunner, Runner, SystemInfo } from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { z } from 'zod'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent } from '../support/http.js'
import { castFor, dumpDatabase, insertTemplate, type Cast } from '../support/resources.js'
import { startTestServer, type TestServer } from '../support/server.js'

const Runners = z.array(Runner)

describe.each(dialects())('runners on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let projectId: number
  let otherProjectId: number
  let cast: Cast

  beforeAll(async () => {
    // No FLAGMAN_RUNNER_REGISTRATION_TOKEN: runners can only be created here.
    server = await startTestServer(dialect)
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    projectId = (await world.newProject()).id
    otherProjectId = (await world.newProject()).id
    cast = await castFor(world, projectId)
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
  })

  const as = (person: Person = admin) => person.as
  const global = (path = '') => `/api/runners${path}`
  const inProject = (path = '', id = projectId) => `/api/project/${id}/runners${path}`

  async function create(path: string, fields: Record<string, unknown> = {}, person = admin) {
    const result = await world.request('POST', path, {
      as: as(person),
      json: { name: unique('runner'), ...fields },
    })
    return expectBody(result, 201, CreatedRunner)
  }

  function poll(token: string) {
    return world.request('GET', '/api/internal/runners', { headers: { 'X-Runner-Token': token } })
  }

  /** A task held by the runner, written directly: no runner process takes part here. */
  async function heldTask(runnerId: number, status: string): Promise<number> {
    const templateId = await insertTemplate(db, projectId, { name: unique('tpl'), app: 'bash' })
    return insertReturningId(db, 'task', {
      project_id: projectId,
      template_id: templateId,
      status,
      runner_id: runnerId,
      created: nowIso(),
    })
  }

  it('says in /api/info whether runners are in use, and that project runners are available', async () => {
    const before = expectBody(
      await world.request('GET', '/api/info', { as: as() }),
      200,
      SystemInfo,
    )
    expect(before.use_remote_runner).toBe(false)
    expect(before.premium_features.project_runners).toBe(true)
    const runner = await create(inProject())
    const after = expectBody(await world.request('GET', '/api/info', { as: as() }), 200, SystemInfo)
    expect(after.use_remote_runner).toBe(true)
    expectNoContent(await world.request('DELETE', inProject(`/${runner.id}`), { as: as() }))
    const gone = expectBody(await world.request('GET', '/api/info', { as: as() }), 200, SystemInfo)
    expect(gone.use_remote_runner).toBe(false)
  })

  it('creates a global runner and shows its token and private key this once', async () => {
    const created = await create(global(), {
      name: 'build box',
      webhook: 'https://hooks.example.test/runner',
      max_parallel_tasks: 3,
      tag: ' linux, docker ,linux',
      active: true,
    })
    expect(created).toMatchObject({
      project_id: null,
      name: 'build box',
      webhook: 'https://hooks.example.test/runner',
      max_parallel_tasks: 3,
      active: true,
      tag: 'linux,docker',
      touched: null,
      online: false,
      running_tasks: [],
    })
    // base64 of 32 random bytes.
    expect(Buffer.from(created.token, 'base64')).toHaveLength(32)
    expect(created.private_key).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n/)
    const privateKey = createPrivateKey(created.private_key)
    expect(privateKey.asymmetricKeyDetails?.modulusLength).toBe(2048)

    // Stored: the token's hash and the public half only.
    const row = await db.kysely
      .selectFrom('runner')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    expect(row.token_hash).toBe(createHash('sha256').update(created.token).digest('hex'))
    expect(row.public_key).toBe(createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }))
    const everything = await dumpDatabase(db)
    expect(everything).not.toContain(created.token)
    expect(everything).not.toContain(created.private_key.split('\n')[1])

    // Never again: not in the list, not in a read.
    const listed = await world.request('GET', global(), { as: as() })
    const read = await world.request('GET', global(`/${created.id}`), { as: as() })
    for (const result of [listed, read]) {
      expect(result.text).not.toContain(created.token)
      expect(result.text).not.toContain('private_key')
      expect(result.text).not.toContain('"token"')
      expect(result.text).not.toContain('PUBLIC KEY')
    }
    expect(expectBody(listed, 200, Runners).map((r) => r.id)).toContain(created.id)
    const { token: _t, private_key: _k, ...shown } = created
    expect(expectBody(read, 200, Runner)).toEqual(shown)
  })

  it('defaults what a creation leaves out', async () => {
    const created = await create(global(), { name: 'plain' })
    expect(created).toMatchObject({ webhook: '', max_parallel_tasks: 0, active: true, tag: '' })
    // The fields a client read may be sent back unchanged.
    const again = await world.request('POST', global(), {
      as: as(),
      json: { ...created, id: undefined, token: undefined, private_key: undefined },
    })
    expect(again.status, again.text).toBe(201)
  })

  it('updates by PUT and by POST, tags and slots included', async () => {
    const created = await create(global(), { tag: 'a' })
    expectNoContent(
      await world.request('PUT', global(`/${created.id}`), {
        as: as(),
        json: { name: 'renamed', tag: 'b,c', max_parallel_tasks: 5, webhook: '' },
      }),
    )
    let runner = expectBody(
      await world.request('GET', global(`/${created.id}`), { as: as() }),
      200,
      Runner,
    )
    expect(runner).toMatchObject({
      name: 'renamed',
      tag: 'b,c',
      max_parallel_tasks: 5,
      webhook: '',
    })
    expectNoContent(
      await world.request('POST', global(`/${created.id}`), {
        as: as(),
        json: { ...runner, name: 'posted', active: false },
      }),
    )
    runner = expectBody(
      await world.request('GET', global(`/${created.id}`), { as: as() }),
      200,
      Runner,
    )
    expect(runner).toMatchObject({ name: 'posted', active: false, tag: 'b,c' })
    expectError(
      await world.request('PUT', global(`/${created.id}`), {
        as: as(),
        json: { id: created.id + 1000, name: 'x' },
      }),
      400,
      'Runner ID in body and URL must be the same',
    )
  })

  it('switches a runner on and off', async () => {
    const created = await create(global())
    const path = global(`/${created.id}/active`)
    expectNoContent(await world.request('POST', path, { as: as(), json: { active: false } }))
    expect(
      expectBody(await world.request('GET', global(`/${created.id}`), { as: as() }), 200, Runner)
        .active,
    ).toBe(false)
    expectNoContent(await world.request('POST', path, { as: as(), json: { active: true } }))
    for (const json of [{}, { active: 'yes' }, [], { active: 1 }]) {
      expectError(
        await world.request('POST', path, { as: as(), json }),
        400,
        'Invalid request body',
      )
    }
    expectError(
      await world.request('POST', global('/999999/active'), { as: as(), json: { active: true } }),
      404,
      'Runner not found',
    )
  })

  it('refuses invalid fields with a message', async () => {
    const cases: [Record<string, unknown>, string | RegExp][] = [
      [{ name: '' }, 'Name is required'],
      [{ name: '   ' }, 'Name is required'],
      [{}, /name/i],
      [{ name: 'x', tag: 'has space' }, /tags may hold only/],
      [{ name: 'x', tag: 'a;b' }, /tags may hold only/],
      [{ name: 'x', webhook: 'ftp://example.test' }, /webhook must be an http or https URL/],
      [{ name: 'x', max_parallel_tasks: -1 }, /can not be negative/],
      [{ name: 'x', max_parallel_tasks: 1.5 }, /whole number/],
      [{ name: 'x', active: 'yes' }, /active/],
      [{ name: 'x', project_id: projectId }, /global runner has no project/],
    ]
    const before = expectBody(await world.request('GET', global(), { as: as() }), 200, Runners)
    for (const [json, message] of cases) {
      const result = await world.request('POST', global(), { as: as(), json })
      expectError(result, 400, message)
    }
    expectError(
      await world.request('POST', inProject(), {
        as: as(),
        json: { name: 'x', project_id: otherProjectId },
      }),
      400,
      'Project ID in body and URL must be the same',
    )
    const after = expectBody(await world.request('GET', global(), { as: as() }), 200, Runners)
    expect(after).toEqual(before)
  })

  it('ignores a token chosen by the caller: the server makes its own', async () => {
    const created = await create(global(), { token: 'mine' })
    expect(created.token).not.toBe('mine')
    expect(created.token.length).toBeGreaterThan(20)
    expectError(await poll('mine'), 404, 'Runner not found')
  })

  it('answers 404 for an unknown runner and keeps global and project runners apart', async () => {
    const globalRunner = await create(global())
    const projectRunner = await create(inProject())
    expect(projectRunner.project_id).toBe(projectId)
    const notFound = (path: string, method = 'GET', json?: unknown) =>
      world
        .request(method, path, { as: as(), json })
        .then((r) => expectError(r, 404, 'Runner not found'))
    await notFound(global('/999999'))
    await notFound(global(`/${projectRunner.id}`))
    await notFound(global(`/${projectRunner.id}`), 'PUT', { name: 'x' })
    await notFound(global(`/${projectRunner.id}`), 'DELETE')
    await notFound(inProject(`/${globalRunner.id}`))
    await notFound(inProject(`/${projectRunner.id}`, otherProjectId))
    await notFound(inProject(`/${projectRunner.id}`, otherProjectId), 'DELETE')
    const globals = expectBody(await world.request('GET', global(), { as: as() }), 200, Runners)
    expect(globals.every((r) => r.project_id === null)).toBe(true)
    expect(globals.map((r) => r.id)).not.toContain(projectRunner.id)
    const own = expectBody(await world.request('GET', inProject(), { as: as() }), 200, Runners)
    expect(own.map((r) => r.id)).toContain(projectRunner.id)
    expect(own.every((r) => r.project_id === projectId)).toBe(true)
    const other = expectBody(
      await world.request('GET', inProject('', otherProjectId), { as: as() }),
      200,
      Runners,
    )
    expect(other).toEqual([])
    expectError(await world.request('GET', global('/abc'), { as: as() }), 400)
  })

  it('lets only administrators use global runners', async () => {
    const created = await create(global())
    const user = cast.manager
    const refused = [
      ['GET', global(), undefined],
      ['POST', global(), { name: 'mine' }],
      ['GET', global(`/${created.id}`), undefined],
      ['PUT', global(`/${created.id}`), { name: 'mine' }],
      ['POST', global(`/${created.id}/active`), { active: false }],
      ['DELETE', global(`/${created.id}`), undefined],
    ] as const
    for (const [method, path, json] of refused) {
      expectError(await world.request(method, path, { as: user.as, json }), 403)
      expectError(await world.request(method, path, { json }), 401)
    }
    const still = expectBody(
      await world.request('GET', global(`/${created.id}`), { as: as() }),
      200,
      Runner,
    )
    expect(still).toMatchObject({ name: created.name, active: true })
  })

  it('lets members read project runners and managers change them', async () => {
    const made = await create(inProject(), { name: 'by manager' }, cast.manager)
    for (const person of [cast.guest, cast.task_runner, cast.manager]) {
      const list = expectBody(
        await world.request('GET', inProject(), { as: person.as }),
        200,
        Runners,
      )
      expect(list.map((r) => r.id)).toContain(made.id)
      expectBody(
        await world.request('GET', inProject(`/${made.id}`), { as: person.as }),
        200,
        Runner,
      )
    }
    for (const person of [cast.guest, cast.task_runner]) {
      expectError(
        await world.request('POST', inProject(), { as: person.as, json: { name: 'no' } }),
        403,
      )
      expectError(
        await world.request('PUT', inProject(`/${made.id}`), {
          as: person.as,
          json: { name: 'no' },
        }),
        403,
      )
      expectError(
        await world.request('POST', inProject(`/${made.id}/active`), {
          as: person.as,
          json: { active: false },
        }),
        403,
      )
      expectError(await world.request('DELETE', inProject(`/${made.id}`), { as: person.as }), 403)
    }
    expectError(await world.request('GET', inProject(), { as: cast.outsider.as }), 404)
    expectNoContent(
      await world.request('PUT', inProject(`/${made.id}`), {
        as: cast.manager.as,
        json: { name: 'managed', project_id: projectId, id: made.id },
      }),
    )
    expectNoContent(
      await world.request('DELETE', inProject(`/${made.id}`), { as: cast.manager.as }),
    )
    expectError(await world.request('GET', inProject(`/${made.id}`), { as: as() }), 404)
  })

  it('shows a runner online once it polls, with the tasks it holds', async () => {
    const created = await create(inProject())
    expect(created.online).toBe(false)
    expect((await poll(created.token)).status).toBe(200)
    const taskId = await heldTask(created.id, 'running')
    const runner = expectBody(
      await world.request('GET', inProject(`/${created.id}`), { as: as() }),
      200,
      Runner,
    )
    expect(runner.online).toBe(true)
    expect(runner.touched).not.toBeNull()
    expect(runner.running_tasks).toEqual([
      { task_id: taskId, project_id: projectId, status: 'running' },
    ])
    await db.kysely
      .updateTable('task')
      .set({ status: 'success' })
      .where('id', '=', taskId)
      .execute()
  })

  it('refuses to delete a runner while it holds tasks, naming them', async () => {
    const created = await create(global())
    // Heard from, so it is not a lost runner whose tasks the queue would end.
    expect((await poll(created.token)).status).toBe(200)
    const first = await heldTask(created.id, 'running')
    const second = await heldTask(created.id, 'stopping')
    expectError(
      await world.request('DELETE', global(`/${created.id}`), { as: as() }),
      409,
      `Runner #${created.id} has running tasks: #${first}, #${second}. Stop them first.`,
    )
    expect((await poll(created.token)).status).toBe(200)
    await db.kysely
      .updateTable('task')
      .set({ status: 'error' })
      .where('id', 'in', [first, second])
      .execute()
    expectNoContent(await world.request('DELETE', global(`/${created.id}`), { as: as() }))
    // Deleted: its token is refused at once.
    expectError(await poll(created.token), 404, 'Runner not found')
    expectError(await world.request('GET', global(`/${created.id}`), { as: as() }), 404)
  })

  it('refuses self-registration when the server has no registration token', async () => {
    for (const json of [{ registration_token: '' }, { registration_token: 'anything' }, {}]) {
      expectError(
        await world.request('POST', '/api/internal/runners', { json }),
        400,
        'Invalid registration token',
      )
    }
  })
})
