import { execFileSync } from 'node:child_process'
import { generateKeyPairSync } from 'node:crypto'
import { request } from 'node:http'
import { CreatedRunner, Runner, RunnerPollAnswer, type RunnerNewJob } from '@flagman/contract'
import { insertReturningId, nowIso, type Db } from '@flagman/db'
import { generateRunnerKeyPair, openHybrid } from '@flagman/executor'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dialects } from '../support/databases.js'
import { unique, World, type Person } from '../support/fixtures.js'
import { expectBody, expectError, expectNoContent, type HttpResult } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

const REGISTRATION_TOKEN = 'registration-token-for-tests'
const PROTOCOL = '/api/internal/runners'

/*
 * Node 20 refuses PKCS#1 v1.5 decryption unless the protection is reverted; a runner only
 * decrypts what its own server sent, so this runs in a child process, as a runner would.
 * Node prints a warning on standard output first, so the result is its last line.
 */
const DECRYPT_CHUNKS = `
const { privateDecrypt, constants, createPrivateKey } = require('node:crypto')
const input = JSON.parse(require('node:fs').readFileSync(0, 'utf8'))
const key = createPrivateKey(input.key)
const size = key.asymmetricKeyDetails.modulusLength / 8
const data = Buffer.from(input.data, 'base64')
const parts = []
for (let at = 0; at < data.length; at += size) {
  parts.push(privateDecrypt({ key, padding: constants.RSA_PKCS1_PADDING }, data.subarray(at, at + size)))
}
process.stdout.write('\\n' + Buffer.concat(parts).toString('base64'))
`

function decryptChunks(sealed: Buffer, privateKeyPem: string): string {
  const out = execFileSync(
    process.execPath,
    ['--security-revert=CVE-2023-46809', '-e', DECRYPT_CHUNKS],
    { input: JSON.stringify({ key: privateKeyPem, data: sealed.toString('base64') }) },
  )
  return Buffer.from(out.toString().split('\n').pop() ?? '', 'base64').toString('utf8')
}

describe.each(dialects())('the runner protocol on %s', (dialect) => {
  let server: TestServer
  let world: World
  let admin: Person
  let db: Db
  let repo: { path: string; dispose(): void }
  let tp: TaskProject
  let templateId: number
  let inventoryKeyId: number
  let inventoryId: number

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      FLAGMAN_RUNNER_REGISTRATION_TOKEN: REGISTRATION_TOKEN,
    })
    world = new World(server)
    admin = await world.admin()
    db = await world.openDb()
    await activateScriptApps(world)
    repo = gitFixture()
    tp = await TaskProject.create(world, repo.path)
    inventoryKeyId = (await tp.p.loginPasswordKey(unique('hosts'), 'inventory-password', 'ops')).id
    const inventory = await tp.p.inventory(unique('inv'), inventoryKeyId)
    const environment = await tp.p.environment(unique('env'), {
      json: '{"greeting":"hi"}',
      secrets: [
        { type: 'var', name: 'API_TOKEN', secret: 'environment-secret', operation: 'create' },
      ],
    })
    // A bash template has no inventory of its own; the task names one.
    inventoryId = inventory.id
    templateId = await tp.template('ok.sh', { environment_id: environment.id })
  })
  afterAll(async () => {
    await db?.destroy()
    await server?.stop()
    repo?.dispose()
  })

  function call(
    method: string,
    token: string | undefined,
    options: { json?: unknown; raw?: string; query?: string } = {},
  ): Promise<HttpResult> {
    return world.request(method, `${PROTOCOL}${options.query ?? ''}`, {
      headers: token === undefined ? {} : { 'X-Runner-Token': token },
      ...(options.json !== undefined ? { json: options.json } : {}),
      ...(options.raw !== undefined
        ? {
            raw: options.raw,
            headers: { 'X-Runner-Token': token ?? '', 'Content-Type': 'application/json' },
          }
        : {}),
    })
  }

  async function register(fields: Record<string, unknown> = {}): Promise<string> {
    const result = await call('POST', undefined, {
      json: { registration_token: REGISTRATION_TOKEN, ...fields },
    })
    expect(result.status, result.text).toBe(200)
    const token = (result.body as { token: string }).token
    expect(Buffer.from(token, 'base64')).toHaveLength(32)
    return token
  }

  async function runnerOf(token: string): Promise<Runner> {
    const all = expectBody(
      await world.request('GET', '/api/runners', { as: admin.as }),
      200,
      Runner.array(),
    )
    const rows = await db.kysely.selectFrom('runner').select(['id', 'token_hash']).execute()
    const { createHash } = await import('node:crypto')
    const hash = createHash('sha256').update(token).digest('hex')
    const id = rows.find((r) => r.token_hash === hash)?.id
    const runner = all.find((r) => r.id === id)
    if (!runner) throw new Error('no runner with this token')
    return runner
  }

  async function pollJson(token: string, query = ''): Promise<RunnerPollAnswer> {
    const result = await call('GET', token, { query })
    expect(result.headers.get('cache-control')).toBe('no-store')
    return expectBody(result, 200, RunnerPollAnswer)
  }

  /** A task handed to the runner, written directly so no dispatch timing is involved. */
  async function assignedTask(runnerId: number, status = 'starting'): Promise<number> {
    return insertReturningId(db, 'task', {
      project_id: tp.p.projectId,
      template_id: templateId,
      status,
      runner_id: runnerId,
      user_id: admin.id,
      inventory_id: inventoryId,
      message: 'from the protocol test',
      created: nowIso(),
    })
  }

  async function taskRow(id: number) {
    return db.kysely.selectFrom('task').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  }

  async function outputCount(id: number): Promise<number> {
    const rows = await db.kysely
      .selectFrom('task_output')
      .select('id')
      .where('task_id', '=', id)
      .execute()
    return rows.length
  }

  it('refuses calls without a token or with an unknown one', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const json = method === 'PUT' ? { Jobs: [] } : undefined
      expectError(await call(method, undefined, { json }), 401, 'Invalid token')
      expectError(await call(method, '', { json }), 401, 'Invalid token')
      expectError(await call(method, 'not-a-token', { json }), 404, 'Runner not found')
    }
  })

  it('registers only with the configured registration token', async () => {
    for (const json of [
      {},
      { registration_token: '' },
      { registration_token: 'wrong' },
      { registration_token: `${REGISTRATION_TOKEN}x` },
      { registration_token: 42 },
    ]) {
      expectError(await call('POST', undefined, { json }), 400, 'Invalid registration token')
    }
    expectError(await call('POST', undefined, { raw: '[]' }), 400, 'Invalid registration token')
    const before = await db.kysely.selectFrom('runner').select('id').execute()
    const token = await register({ webhook: '', max_parallel_tasks: 2, tag: 'linux , arm' })
    const runner = await runnerOf(token)
    expect(runner).toMatchObject({
      project_id: null,
      name: `Runner ${runner.id}`,
      active: true,
      max_parallel_tasks: 2,
      tag: 'linux,arm',
      online: true,
    })
    const named = await runnerOf(await register({ name: 'named box' }))
    expect(named.name).toBe('named box')
    const after = await db.kysely.selectFrom('runner').select('id').execute()
    expect(after.length).toBe(before.length + 2)
  })

  it('refuses a public key that is not an RSA key of at least 2048 bits', async () => {
    const weak = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey
    const count = async () => (await db.kysely.selectFrom('runner').select('id').execute()).length
    const before = await count()
    for (const key of [
      'not a key',
      '-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n',
      String(weak.export({ type: 'spki', format: 'pem' })),
      String(ec.export({ type: 'spki', format: 'pem' })),
    ]) {
      expectError(
        await call('POST', undefined, {
          json: { registration_token: REGISTRATION_TOKEN, public_key: key },
        }),
        400,
        'Invalid public key',
      )
    }
    expectError(
      await call('POST', undefined, {
        json: { registration_token: REGISTRATION_TOKEN, webhook: 'javascript:alert(1)' },
      }),
      400,
      /webhook/,
    )
    const huge = await call('POST', undefined, {
      json: { registration_token: REGISTRATION_TOKEN, name: 'x', public_key: 'k'.repeat(70_000) },
    })
    expectError(huge, 413)
    expect(await count()).toBe(before)
  })

  it('answers plain JSON to a runner without a public key, and takes its start settings', async () => {
    const token = await register()
    const answer = await pollJson(token)
    expect(answer).toEqual({ CurrentJobs: [], new_jobs: [], access_keys: {} })
    await pollJson(token, '?tags=gpu,%20big&max_parallel_tasks=7')
    expect(await runnerOf(token)).toMatchObject({ tag: 'gpu,big', max_parallel_tasks: 7 })
    for (const [query, message] of [
      ['?wait=abc', /wait must be a number/],
      ['?wait=-1', /wait can not be negative/],
      ['?wait=31', /wait must be at most 30 seconds/],
      ['?wait=1.5', /whole number/],
      ['?encryption=rsa', /encryption must be 'hybrid'/],
      ['?tags=a;b', /tags may hold only/],
      ['?max_parallel_tasks=many', /max_parallel_tasks must be a number/],
    ] as const) {
      expectError(await call('GET', token, { query }), 400, message)
    }
  })

  it('hands a starting task over with its secrets, encrypted to the runner key', async () => {
    const keys = generateRunnerKeyPair()
    const token = await register({ public_key: keys.publicKeyPem })
    const runner = await runnerOf(token)
    const taskId = await assignedTask(runner.id)

    const hybrid = await call('GET', token, { query: '?encryption=hybrid' })
    expect(hybrid.status).toBe(200)
    expect(hybrid.headers.get('content-type')).toMatch(/^application\/octet-stream/)
    expect(hybrid.headers.get('cache-control')).toBe('no-store')
    const response = await server.fetch(`${PROTOCOL}?encryption=hybrid`, {
      headers: { 'X-Runner-Token': token },
    })
    const sealed = Buffer.from(await response.arrayBuffer())
    expect(sealed.toString('latin1')).not.toContain('environment-secret')
    expect(sealed.toString('latin1')).not.toContain('inventory-password')
    const answer = RunnerPollAnswer.parse(
      JSON.parse(openHybrid(sealed, keys.privateKeyPem).toString()),
    )

    expect(answer.CurrentJobs).toEqual([{ id: taskId, status: 'starting' }])
    expect(answer.new_jobs).toHaveLength(1)
    const job = answer.new_jobs[0] as RunnerNewJob
    expect(job).toMatchObject({
      Username: admin.username,
      IncomingVersion: null,
      Alias: '',
      task: {
        id: taskId,
        template_id: templateId,
        status: 'starting',
        message: 'from the protocol test',
      },
      template: { id: templateId, app: 'bash', playbook: 'ok.sh' },
      inventory: { ssh_key_id: inventoryKeyId },
      inventory_repository: null,
      repository: { id: tp.repositoryId },
    })
    const environment = job.environment as { secrets: { name: string; secret: string }[] }
    expect(environment.secrets).toEqual([
      expect.objectContaining({ name: 'API_TOKEN', type: 'var', secret: 'environment-secret' }),
    ])
    expect(answer.access_keys[String(inventoryKeyId)]).toMatchObject({
      id: inventoryKeyId,
      type: 'login_password',
      login_password: { login: 'ops', password: 'inventory-password' },
    })
    expect(job.job).toMatchObject({ taskId, workRoot: '' })

    // The compatible format: PKCS#1 v1.5 chunks of 245 bytes, 256 bytes each.
    const compatible = await server.fetch(PROTOCOL, { headers: { 'X-Runner-Token': token } })
    expect(compatible.headers.get('content-type')).toMatch(/^application\/octet-stream/)
    const chunks = Buffer.from(await compatible.arrayBuffer())
    expect(chunks.length % 256).toBe(0)
    const decrypted = RunnerPollAnswer.parse(JSON.parse(decryptChunks(chunks, keys.privateKeyPem)))
    expect(decrypted.CurrentJobs).toEqual(answer.CurrentJobs)
    expect(decrypted.new_jobs[0]?.task).toEqual(job.task)

    // Nothing of the payload reaches the stored task either.
    expect(JSON.stringify(await taskRow(taskId))).not.toContain('environment-secret')
    await db.kysely.updateTable('task').set({ status: 'error' }).where('id', '=', taskId).execute()
  })

  it('gives an inactive runner no new job but tells it what it holds', async () => {
    const token = await register()
    const runner = await runnerOf(token)
    const taskId = await assignedTask(runner.id)
    expectNoContent(
      await world.request('POST', `/api/runners/${runner.id}/active`, {
        as: admin.as,
        json: { active: false },
      }),
    )
    const answer = await pollJson(token)
    expect(answer.new_jobs).toEqual([])
    expect(answer.CurrentJobs).toEqual([{ id: taskId, status: 'starting' }])
    await db.kysely.updateTable('task').set({ status: 'error' }).where('id', '=', taskId).execute()
  })

  it('refuses malformed progress reports with "Invalid format"', async () => {
    const token = await register()
    for (const json of [
      {},
      [],
      { Jobs: 'x' },
      { Jobs: {} },
      { Jobs: [{}] },
      { Jobs: [{ ID: 'a', Status: 'running' }] },
      { Jobs: [{ ID: 1 }] },
      { Jobs: [{ ID: 1, Status: 'running', LogRecords: [{ time: 1, message: 'x' }] }] },
      { Jobs: [{ ID: 1, Status: 'running', LogRecords: 'x' }] },
      { Jobs: [{ ID: 1, Status: 'running', Commit: { hash: 5 } }] },
    ]) {
      expectError(await call('PUT', token, { json }), 400, 'Invalid format')
    }
    expectError(await call('PUT', token, { raw: '{"Jobs":' }), 400)
    expectNoContent(await call('PUT', token, { json: { Jobs: [] } }))
  })

  it("refuses a report on another runner's task and writes nothing", async () => {
    const owner = await register()
    const stranger = await register()
    const taskId = await assignedTask((await runnerOf(owner)).id)
    const before = await taskRow(taskId)
    const report = (status: string, message: string) => ({
      Jobs: [{ ID: taskId, Status: status, LogRecords: [{ time: nowIso(), message }] }],
    })
    expectError(
      await call('PUT', stranger, { json: report('success', 'not mine') }),
      400,
      'Task not assigned to this runner',
    )
    expectError(
      await call('PUT', stranger, { json: { Jobs: [{ ID: 99_999_999, Status: 'running' }] } }),
      400,
      'Task not assigned to this runner',
    )
    expect(await taskRow(taskId)).toEqual(before)
    expect(await outputCount(taskId)).toBe(0)

    // Its own runner may.
    expectNoContent(await call('PUT', owner, { json: report('running', 'hello from the runner') }))
    expect((await taskRow(taskId)).status).toBe('running')
    expectError(
      await call('PUT', owner, { json: report('no-such-status', 'x') }),
      400,
      'Invalid task status',
    )
    expectNoContent(await call('PUT', owner, { json: report('success', 'done') }))
    const deadline = Date.now() + 10_000
    while ((await outputCount(taskId)) < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50))
    }
    expect(await outputCount(taskId)).toBe(2)
    expect((await taskRow(taskId)).status).toBe('success')
    expectError(await call('PUT', owner, { json: report('success', 'late') }), 400)
  })

  /**
   * Sends a body of `bytes` bytes and reads the answer. With `declared`, the size is given as
   * Content-Length and nothing is sent until the server answers (it judges by the header);
   * otherwise the body streams chunked, and the server may cut the connection before it is
   * all sent: the status is then 0.
   */
  function sendLarge(
    token: string,
    bytes: number,
    declared: boolean,
  ): Promise<{ status: number; text: string }> {
    const url = new URL(`${server.url}${PROTOCOL}`)
    return new Promise((resolve, reject) => {
      let answered = false
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'PUT',
          headers: {
            'X-Runner-Token': token,
            'Content-Type': 'application/json',
            ...(declared ? { 'Content-Length': String(bytes) } : {}),
          },
        },
        (res) => {
          answered = true
          let text = ''
          res.on('data', (chunk: Buffer) => (text += chunk.toString()))
          res.on('end', () => {
            req.destroy()
            resolve({ status: res.statusCode ?? 0, text })
          })
          res.on('error', reject)
        },
      )
      req.on('error', () => {
        if (!answered) resolve({ status: 0, text: '' })
      })
      if (declared) {
        req.flushHeaders()
        return
      }
      const chunk = Buffer.alloc(1024 * 1024, 'x')
      let sent = 0
      const more = (): void => {
        while (sent < bytes && !req.destroyed) {
          const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent))
          sent += part.length
          if (!req.write(part)) {
            req.once('drain', more)
            return
          }
        }
        if (!req.destroyed) req.end()
      }
      more()
    })
  }

  it('answers 413 to a report over 16 MB and keeps serving', async () => {
    const token = await register()
    const big = 17 * 1024 * 1024
    const answer = await sendLarge(token, big, true)
    expect(answer.status).toBe(413)
    expect(JSON.parse(answer.text)).toEqual({ error: 'Request body is too large' })
    // Streamed without a size: refused once the limit is passed (or the connection cut).
    expect([0, 413]).toContain((await sendLarge(token, big, false)).status)
    expect((await server.fetch('/api/ping')).status).toBe(200)
    expectNoContent(await call('PUT', token, { json: { Jobs: [] } }))
    // An unknown caller is refused before its body is read at all.
    expect((await sendLarge('unknown-token', big, true)).status).toBe(404)
  })

  it('holds a long poll that has no news until the wait is over', async () => {
    const token = await register()
    await pollJson(token, '?wait=1')
    // The same answer again: held for up to a second, then given.
    const held = await pollJson(token, '?wait=1')
    expect(held).toEqual({ CurrentJobs: [], new_jobs: [], access_keys: {} })

    // A runner that hangs up mid-wait leaves the server serving.
    const abort = new AbortController()
    const pending = fetch(`${server.url}${PROTOCOL}?wait=30`, {
      headers: { 'X-Runner-Token': token },
      signal: abort.signal,
    }).catch((error: unknown) => error)
    await new Promise((r) => setTimeout(r, 200))
    abort.abort()
    expect(await pending).toBeInstanceOf(Error)
    expect((await server.fetch('/api/ping')).status).toBe(200)
    await pollJson(token)
  })

  it('unregisters: the runner is gone and its token refused at once', async () => {
    const token = await register()
    const runner = await runnerOf(token)
    expectNoContent(await call('DELETE', token))
    expectError(await call('GET', token), 404, 'Runner not found')
    expectError(await call('DELETE', token), 404, 'Runner not found')
    expectError(await world.request('GET', `/api/runners/${runner.id}`, { as: admin.as }), 404)
  })

  it('refuses a runner deleted in the console at once', async () => {
    const created = expectBody(
      await world.request('POST', '/api/runners', { as: admin.as, json: { name: unique('r') } }),
      201,
      CreatedRunner,
    )
    expect((await call('GET', created.token)).status).toBe(200)
    expectNoContent(await world.request('DELETE', `/api/runners/${created.id}`, { as: admin.as }))
    expectError(await call('GET', created.token), 404, 'Runner not found')
    expectError(await call('PUT', created.token, { json: { Jobs: [] } }), 404, 'Runner not found')
  })
})
