import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Health, RealtimeMessage } from '@flagman/contract'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import pg from 'pg'
import { dialects, POSTGRES_ADMIN_URL } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { expectNoContent, http } from '../support/http.js'
import { ProjectResources } from '../support/resources.js'
import { FLAGMAN_BIN, startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'
import { until } from '../support/wait.js'

const TIMEOUT_SECONDS = 6

async function instanceOf(server: TestServer): Promise<string> {
  return Health.parse(await (await server.fetch('/api/health/live')).json()).instance
}

describe.each(dialects())('health and request ids on %s', (dialect) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('answers live and ready without credentials, naming the instance', async () => {
    const live = await server.fetch('/api/health/live')
    expect(live.status).toBe(200)
    const body = Health.parse(await live.json())
    expect(body.status).toBe('ok')
    expect(body.instance).toMatch(/^[0-9a-f-]{36}$/)

    const ready = await server.fetch('/api/health/ready')
    expect(ready.status).toBe(200)
    expect(Health.parse(await ready.json())).toMatchObject({
      status: 'ok',
      instance: body.instance,
      checks: { database: 'ok', migrations: 'ok', instance: 'ok' },
    })
  })

  it('returns the request id it was given, or a new one', async () => {
    const given = await server.fetch('/api/ping', { headers: { 'X-Request-Id': 'lb-7f3a.1' } })
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a.1')
    const made = await server.fetch('/api/ping', {
      headers: { 'X-Request-Id': 'not an id; with spaces' },
    })
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
    const error = await server.fetch('/api/projects')
    expect(error.status).toBe(401)
    expect(error.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)
  })

  // The answer is public: why the database does not answer (hosts, users) stays in the log.
  it.runIf(dialect === 'postgres')(
    'is not ready while the database refuses connections, and says no more than that',
    async () => {
      const name = new URL(server.scratch!.url!).pathname.slice(1)
      const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
      await admin.connect()
      try {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
        await admin.query(
          'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1',
          [name],
        )
        const ready = await server.fetch('/api/health/ready')
        expect(ready.status).toBe(503)
        const body = Health.parse(await ready.json())
        expect(body).toMatchObject({
          status: 'unavailable',
          checks: { database: 'unreachable', migrations: 'unknown', instance: 'unknown' },
        })
        expect((await server.fetch('/api/health/live')).status).toBe(200)
      } finally {
        await admin.query(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`)
        await admin.end()
      }
      await until('the server to be ready again', async () => {
        return (await server.fetch('/api/health/ready')).status === 200
      })
    },
    30_000,
  )

  // SQLite and MariaDB/MySQL serve one instance: a second one must not start on them.
  it.runIf(dialect !== 'postgres')(
    'a second instance on the same database refuses to start',
    async () => {
      const dataDir =
        dialect === 'sqlite' ? server.dataDir : mkdtempSync(join(tmpdir(), 'flagman-2nd-'))
      const child = spawn(process.execPath, [FLAGMAN_BIN, 'server'], {
        env: { ...server.env, FLAGMAN_DATA_DIR: dataDir, FLAGMAN_PORT: '0' },
        stdio: 'pipe',
      })
      let output = ''
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      if (dataDir !== server.dataDir) rmSync(dataDir, { recursive: true, force: true })
      expect(code).toBe(1)
      expect(output).toMatch(
        /^flagman: Another Flagman server, instance [0-9a-f-]{36} on .+ is serving this (SQLite|MariaDB\/MySQL) database; .* use PostgreSQL/m,
      )
      expect(output).not.toMatch(/is listening on/)
      // The first one still serves.
      expect((await server.fetch('/api/health/ready')).status).toBe(200)
    },
  )
})

describe.runIf(dialects().includes('postgres'))(
  'three instances on one PostgreSQL database',
  () => {
    const env = {
      FLAGMAN_INSTANCE_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
      // Every instance reads the secrets the others stored.
      FLAGMAN_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
      FLAGMAN_MAX_PARALLEL_TASKS: '4',
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '3',
    }
    const repo = gitRepository({
      'quick.sh': 'echo "run $SEMAPHORE_TASK_ID"\n',
      'sleep.sh': 'echo started\nsleep 60\n',
      'count.sh': 'for i in $(seq 1 2000); do echo "line $i"; done\n',
    })
    const servers: TestServer[] = []
    let world: World
    let tp: TaskProject

    const another = (first: TestServer) =>
      startTestServer('postgres', env, {
        reuse: {
          dataDir: mkdtempSync(join(tmpdir(), 'flagman-test-')),
          // The database belongs to the first instance, which drops it when it stops.
          scratch: { url: first.scratch!.url, drop: async () => {} },
        },
      })

    beforeAll(async () => {
      const first = await startTestServer('postgres', env)
      servers.push(first, await another(first), await another(first))
      world = new World(first)
      await activateScriptApps(world)
      tp = await TaskProject.create(world, repo.path)
    }, 90_000)

    afterAll(async () => {
      // The first instance last: it drops the database.
      for (const server of [...servers].reverse()) await server.stop()
      repo.dispose()
    })

    /** The project's API through another instance, with the same session. */
    const through = (server: TestServer) =>
      new TaskProject(
        new World(server),
        new ProjectResources(
          (method, path, options) => http(server.url, method, path, options),
          tp.p.as,
          tp.p.projectId,
        ),
        tp.repositoryId,
      )

    /** The instance that ran (or runs) a task. */
    const ownerOf = async (taskId: number): Promise<string | null> => {
      const db = await world.openDb()
      try {
        const row = await db.kysely
          .selectFrom('task')
          .select('claimed_by')
          .where('id', '=', taskId)
          .executeTakeFirstOrThrow()
        return row.claimed_by
      } finally {
        await db.destroy()
      }
    }

    /** A websocket client of the server, signed in as the project's owner. */
    const watch = (server: TestServer) =>
      new Promise<{ socket: WebSocket; messages: RealtimeMessage[] }>((resolve, reject) => {
        const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ws`, {
          headers: { Cookie: tp.p.as.cookie ?? '' },
        })
        const messages: RealtimeMessage[] = []
        socket.on('message', (data) =>
          messages.push(RealtimeMessage.parse(JSON.parse(String(data)))),
        )
        socket.once('open', () => resolve({ socket, messages }))
        socket.once('error', reject)
      })

    it('runs 300 tasks posted to all three, each once, with the project limit held cluster-wide', async () => {
      const db = await world.openDb()
      try {
        await sql`update project set max_parallel_tasks = 5 where id = ${tp.p.projectId}`.execute(
          db.kysely,
        )
        // One task of a template runs at a time: ten templates let the project limit bind.
        const templateIds: number[] = []
        for (let i = 0; i < 10; i += 1) templateIds.push(await tp.template('quick.sh'))
        const projects = servers.map(through)
        let most = 0
        let sampling = true
        const sampler = (async () => {
          while (sampling) {
            const busy = await sql<{ n: number }>`select count(*)::int as n from task
            where project_id = ${tp.p.projectId} and status in ('starting', 'running', 'stopping')`.execute(
              db.kysely,
            )
            most = Math.max(most, Number(busy.rows[0]?.n))
            await new Promise((resolve) => setTimeout(resolve, 5))
          }
        })()
        const ids: number[] = []
        for (let i = 0; i < 300; i += 1) {
          ids.push((await projects[i % 3]!.run(templateIds[i % 10]!)).id)
        }
        await until(
          'every task to end',
          async () => {
            const left = await sql<{ n: number }>`select count(*)::int as n from task
            where project_id = ${tp.p.projectId} and "end" is null`.execute(db.kysely)
            return Number(left.rows[0]?.n) === 0
          },
          120_000,
        )
        sampling = false
        await sampler
        const rows = await sql<{ id: number; status: string; claimed_by: string; starts: number }>`
        select t.id, t.status, t.claimed_by,
          (select count(*)::int from task_output o
            where o.task_id = t.id and o.output like 'Run TaskRunner%') as starts
        from task t where t.id in (${sql.join(ids)})`.execute(db.kysely)
        expect(rows.rows).toHaveLength(300)
        expect(rows.rows.filter((r) => r.status !== 'success')).toEqual([])
        expect(rows.rows.filter((r) => r.starts !== 1)).toEqual([])
        expect(most).toBeLessThanOrEqual(5)
        const instances = new Set(await Promise.all(servers.map(instanceOf)))
        const ranOn = new Set(rows.rows.map((r) => r.claimed_by))
        expect([...ranOn].every((id) => instances.has(id))).toBe(true)
        expect(ranOn.size).toBeGreaterThanOrEqual(2)
      } finally {
        await db.destroy()
      }
    }, 180_000)

    it('a websocket client on one instance gets every line of a task another instance runs', async () => {
      const templateId = await tp.template('count.sh')
      const viewers = await Promise.all(servers.map(watch))
      try {
        const task = await tp.run(templateId)
        const ended = await tp.waitFor(task.id)
        expect(ended.status).toBe('success')
        const owner = await ownerOf(task.id)
        const ids = await Promise.all(servers.map(instanceOf))
        const elsewhere = viewers.filter((_, i) => ids[i] !== owner)
        expect(elsewhere).toHaveLength(2)
        for (const viewer of elsewhere) {
          await until('the lines to arrive', () =>
            viewer.messages.some(
              (m) => m.type === 'update' && m.task_id === task.id && m.status === 'success',
            ),
          )
          const lines = viewer.messages
            .filter((m) => m.type === 'log' && m.task_id === task.id)
            .map((m) => (m.type === 'log' ? m.output : ''))
            .filter((line) => line.startsWith('line '))
          expect(lines).toEqual(Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`))
        }
      } finally {
        for (const viewer of viewers) viewer.socket.close()
      }
    }, 60_000)

    it('a stop sent to one instance ends a task another instance runs', async () => {
      const templateId = await tp.template('sleep.sh')
      const task = await tp.run(templateId)
      await tp.waitForLine(task.id, /^started$/)
      const owner = await ownerOf(task.id)
      const ids = await Promise.all(servers.map(instanceOf))
      const other = servers[ids.findIndex((id) => id !== owner)]!
      expectNoContent(await through(other).p.request('POST', `/tasks/${task.id}/stop`, {}))
      expect((await tp.waitFor(task.id)).status).toBe('stopped')
    }, 60_000)

    it('counts wrong passwords spread over the three instances together', async () => {
      const attempt = (server: TestServer) =>
        server.fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth: 'nobody-here', password: 'wrong password' }),
        })
      const templateId = await tp.template('quick.sh')
      const viewer = await watch(servers[0]!)
      try {
        for (const server of servers) expect((await attempt(server)).status).toBe(401)
        // Messages of one instance arrive in the order it sent them: once the first instance
        // has relayed a task the last one queued after its failure, it has counted that too.
        const task = await through(servers[2]!).run(templateId)
        await until('the task to be relayed', () =>
          viewer.messages.some((m) => m.type === 'update' && m.task_id === task.id),
        )
      } finally {
        viewer.socket.close()
      }
      const refused = await attempt(servers[0]!)
      expect(refused.status).toBe(429)
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/)
    })

    it('takes over from a paused instance by its heartbeat, and the paused one can not write back', async () => {
      const templateId = await tp.template('sleep.sh')
      const db = await world.openDb()
      try {
        const ids = await Promise.all(servers.map(instanceOf))
        // A task on the last instance: the others are asked to run it until that one does.
        let task = await tp.run(templateId)
        let owner = ''
        for (;;) {
          await tp.waitForLine(task.id, /^started$/)
          owner = (
            await db.kysely
              .selectFrom('task')
              .select('claimed_by')
              .where('id', '=', task.id)
              .executeTakeFirstOrThrow()
          ).claimed_by!
          if (owner === ids[2]) break
          expectNoContent(await tp.p.request('POST', `/tasks/${task.id}/stop`, { force: true }))
          await tp.waitFor(task.id)
          task = await tp.run(templateId)
        }
        const paused = servers[2]!
        const pausedAt = Date.now()
        paused.signal!('SIGSTOP')
        let ended
        try {
          ended = await tp.waitFor(task.id, ['error'], TIMEOUT_SECONDS * 1000)
          // Ended by the instance that took over (its own time, not when this test looked).
          expect(Date.parse(ended.end!) - pausedAt).toBeLessThan(TIMEOUT_SECONDS * 1000)
        } finally {
          paused.signal!('SIGCONT')
        }
        expect(ended.status).toBe('error')
        expect(await tp.lines(task.id)).toContainEqual(
          expect.stringMatching(
            new RegExp(`^Task was interrupted: server instance ${owner} on .+ stopped answering$`),
          ),
        )
        // Back, it finds itself taken for dead: it kills its job, writes nothing to the task,
        // and serves again as a fresh member.
        await until(
          'the paused instance to register again',
          async () =>
            (await db.kysely
              .selectFrom('server_instance')
              .select('id')
              .where('id', '=', owner)
              .executeTakeFirst()) !== undefined,
        )
        await new Promise((resolve) => setTimeout(resolve, 500))
        const after = await tp.task(task.id)
        expect(after.status).toBe('error')
        expect((await paused.fetch('/api/health/ready')).status).toBe(200)
      } finally {
        await db.destroy()
      }
    }, 60_000)

    it('takes over the tasks of an instance killed mid-task within the timeout', async () => {
      const templateIds = [
        await tp.template('sleep.sh'),
        await tp.template('sleep.sh'),
        await tp.template('sleep.sh'),
      ]
      const tasks = await Promise.all(templateIds.map((id) => tp.run(id)))
      const db = await world.openDb()
      try {
        for (const task of tasks) await tp.waitForLine(task.id, /^started$/)
        const owners = await db.kysely
          .selectFrom('task')
          .select(['id', 'claimed_by'])
          .where(
            'id',
            'in',
            tasks.map((t) => t.id),
          )
          .execute()
        const ids = await Promise.all(servers.map(instanceOf))
        // Not the first instance: the tests read through it.
        const victimIndex = ids.findIndex(
          (id, i) => i > 0 && owners.some((owner) => owner.claimed_by === id),
        )
        const victimId = victimIndex > 0 ? ids[victimIndex]! : ids[1]!
        const victim = servers[victimIndex > 0 ? victimIndex : 1]!
        const theirs = owners.filter((owner) => owner.claimed_by === victimId).map((o) => o.id)
        const killedAt = Date.now()
        await victim.kill!('SIGKILL')
        await until(
          'the killed instance to be removed',
          async () =>
            (await db.kysely
              .selectFrom('server_instance')
              .select('id')
              .where('id', '=', victimId)
              .executeTakeFirst()) === undefined,
          TIMEOUT_SECONDS * 1000,
        )
        for (const id of theirs) {
          const ended = await tp.waitFor(id, ['error'], TIMEOUT_SECONDS * 1000)
          expect(ended.status).toBe('error')
          expect(await tp.lines(id)).toContainEqual(
            expect.stringMatching(
              new RegExp(
                `^Task was interrupted: server instance ${victimId} on .+ stopped answering$`,
              ),
            ),
          )
        }
        expect(Date.now() - killedAt).toBeLessThan(TIMEOUT_SECONDS * 1000)
        // The others' tasks go on.
        for (const owner of owners.filter((o) => o.claimed_by !== victimId)) {
          expect((await tp.task(owner.id)).status).toBe('running')
          expectNoContent(await tp.p.request('POST', `/tasks/${owner.id}/stop`, { force: true }))
        }
        servers.splice(servers.indexOf(victim), 1)
        await victim.stop()
      } finally {
        await db.destroy()
      }
    }, 60_000)
  },
)
