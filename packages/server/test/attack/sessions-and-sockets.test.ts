import { spawn } from 'node:child_process'
import { RealtimeMessage } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { gitRepository, until } from '../support/attack.js'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import {
  expectError,
  expectNoContent,
  http,
  type Credentials,
  type HttpResult,
} from '../support/http.js'
import { ADMIN, FLAGMAN_BIN, startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, TaskProject } from '../support/tasks.js'

/** What a live socket saw, in the order it arrived on the connection. */
type Seen = { kind: 'message'; message: RealtimeMessage } | { kind: 'pong' }

interface Live {
  socket: WebSocket
  seen: Seen[]
  /** Settles with the close code and reason once the connection is gone. */
  closed: Promise<{ code: number; reason: string }>
}

/** Opens `/api/ws` with the given credentials and headers; rejects with the HTTP status. */
function openSocket(
  url: string,
  as: Credentials,
  headers: Record<string, string> = {},
): Promise<Live> {
  const all: Record<string, string> = { ...headers }
  if (as.cookie) all.Cookie = as.cookie
  if (as.token) all.Authorization = `Bearer ${as.token}`
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`, { headers: all })
    const seen: Seen[] = []
    socket.on('message', (data) => {
      const message = RealtimeMessage.parse(JSON.parse(String(data)))
      seen.push({ kind: 'message', message })
    })
    socket.on('pong', () => seen.push({ kind: 'pong' }))
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      socket.once('close', (code, reason) => done({ code, reason: String(reason) })),
    )
    socket.once('open', () => resolve({ socket, seen, closed }))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

/**
 * Sends a ping and tells what comes back first on the connection: the pong, or the close
 * of a socket the server had already closed. Everything the server wrote before it saw the
 * ping arrives before the pong.
 */
function pingOrClose(live: Live): Promise<'pong' | 'close'> {
  if (live.socket.readyState !== WebSocket.OPEN) return Promise.resolve('close')
  return new Promise((resolve) => {
    const onPong = (): void => {
      live.socket.off('close', onClose)
      resolve('pong')
    }
    const onClose = (): void => {
      live.socket.off('pong', onPong)
      resolve('close')
    }
    live.socket.once('pong', onPong)
    live.socket.once('close', onClose)
    live.socket.ping()
  })
}

function ticks(live: Live, taskId: number): number[] {
  return live.seen.flatMap((s) => {
    if (s.kind !== 'message' || s.message.type !== 'log' || s.message.task_id !== taskId) return []
    const match = /^tick (\d+)$/.exec(s.message.output)
    return match ? [Number(match[1])] : []
  })
}

/** Runs `bin/flagman` against the test server's database. */
function flagman(env: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FLAGMAN_BIN, ...args], { env, stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code }))
  })
}

const TICK = 'i=0\nwhile true; do i=$((i+1)); echo "tick $i"; sleep 0.02; done\n'

describe.each(dialects())('sessions and live sockets on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitRepository>
  let tp: TaskProject

  beforeAll(async () => {
    repo = gitRepository({ 'tick.sh': TICK })
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  async function status(as: Credentials): Promise<number> {
    return (await world.request('GET', '/api/user', { as })).status
  }

  describe('the Origin of a websocket upgrade', () => {
    let person: Person
    beforeAll(async () => {
      person = await world.newUser()
    })

    it('refuses a cookie upgrade from a page on another port of the same host', async () => {
      const port = Number(new URL(server.url).port)
      const foreign = `http://127.0.0.1:${port === 65535 ? port - 1 : port + 1}`
      await expect(openSocket(server.url, person.as, { Origin: foreign })).rejects.toThrow(
        /HTTP 403/,
      )
      await expect(
        openSocket(server.url, person.as, { Origin: 'https://evil.example' }),
      ).rejects.toThrow(/HTTP 403/)
      await expect(openSocket(server.url, person.as, { Origin: 'null' })).rejects.toThrow(
        /HTTP 403/,
      )
    })

    it('accepts a cookie upgrade from the same origin, and from a client without Origin', async () => {
      const same = await openSocket(server.url, person.as, { Origin: server.url })
      const bare = await openSocket(server.url, person.as)
      expect(await pingOrClose(same)).toBe('pong')
      expect(await pingOrClose(bare)).toBe('pong')
      same.socket.close()
      bare.socket.close()
    })

    it('accepts a bearer token whatever the Origin', async () => {
      const token = await world.token(person)
      const live = await openSocket(server.url, { token }, { Origin: 'https://evil.example' })
      expect(await pingOrClose(live)).toBe('pong')
      live.socket.close()
    })
  })

  it('stops sending a running task to a member the moment they are removed', async () => {
    const admin = await world.admin()
    const member = await world.newUser()
    await world.addMember(tp.p.projectId, member.id, 'task_runner')
    const witness = await openSocket(server.url, admin.as)
    const removed = await openSocket(server.url, member.as)
    const task = await tp.run(await tp.template('tick.sh'))
    try {
      await until('the member to see the task print', () => ticks(removed, task.id).length >= 3)
      expectNoContent(
        await world.request('DELETE', `/api/project/${tp.p.projectId}/users/${member.id}`, {
          as: admin.as,
        }),
      )
      // Whatever the server sent before the removal comes before this pong.
      expect(await pingOrClose(removed)).toBe('pong')
      const cut = removed.seen.length
      const last = Math.max(...ticks(removed, task.id))
      // The task goes on printing: the administrator sees plenty more of it.
      await until('more output after the removal', () =>
        ticks(witness, task.id).some((n) => n >= last + 25),
      )
      const after = removed.seen
        .slice(cut)
        .filter((s) => s.kind === 'message' && s.message.project_id === tp.p.projectId)
      expect(after).toEqual([])
      // The socket itself stays up for the user's other projects.
      expect(removed.socket.readyState).toBe(WebSocket.OPEN)
    } finally {
      await tp.p.request('POST', `/tasks/${task.id}/stop`, { force: true })
      await tp.waitFor(task.id)
      witness.socket.close()
      removed.socket.close()
    }
  }, 60_000)

  it('closes the socket of a session when it signs out, before the answer', async () => {
    const person = await world.newUser()
    const session = await world.signIn(person.username, person.password)
    const live = await openSocket(server.url, session)
    const other = await openSocket(server.url, person.as)
    expectNoContent(await world.request('POST', '/api/auth/logout', { as: session }))
    expect(await pingOrClose(live)).toBe('close')
    expect(await live.closed).toEqual({ code: 4401, reason: 'Signed out' })
    // The user's other session keeps its socket.
    expect(await pingOrClose(other)).toBe('pong')
    other.socket.close()
  })

  it('closes a bearer socket when its token is expired', async () => {
    const person = await world.newUser()
    const token = await world.token(person)
    const live = await openSocket(server.url, { token })
    expectNoContent(
      await world.request('DELETE', `/api/user/tokens/${token.slice(0, 8)}`, { as: person.as }),
    )
    expect(await pingOrClose(live)).toBe('close')
    expect((await live.closed).code).toBe(4401)
  })

  it('ends API tokens and their sockets when an administrator sets a new password', async () => {
    const admin = await world.admin()
    const person = await world.newUser()
    const token = await world.token(person)
    expect(await status({ token })).toBe(200)
    const bearer = await openSocket(server.url, { token })
    const cookie = await openSocket(server.url, person.as)
    expectNoContent(
      await world.request('POST', `/api/users/${person.id}/password`, {
        as: admin.as,
        json: { password: 'a-new-password-1' },
      }),
    )
    expect(await pingOrClose(bearer)).toBe('close')
    expect(await pingOrClose(cookie)).toBe('close')
    expect(await status({ token })).toBe(401)
    expect(await status(person.as)).toBe(401)
  })

  it('ends API tokens when users change their own password, keeping only that session', async () => {
    const person = await world.newUser()
    const token = await world.token(person)
    const result = await world.request('POST', `/api/users/${person.id}/password`, {
      as: person.as,
      json: { password: 'my-new-password-1', current_password: person.password },
    })
    expectNoContent(result)
    expect(await status({ token })).toBe(401)
    expect(await status(person.as)).toBe(200)
  })

  it('ends API tokens when a new password is set with the command-line tool', async () => {
    const person = await world.newUser()
    const token = await world.token(person)
    expect(await status({ token })).toBe(200)
    const run = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      person.username,
      '--password',
      'cli-new-password-1',
    )
    expect(run.code).toBe(0)
    expect(await status({ token })).toBe(401)
    // And through the other path of the same command, with more than the password.
    const second = await world.token({
      ...person,
      as: await world.signIn(person.username, 'cli-new-password-1'),
    })
    const both = await flagman(
      server.env,
      'user',
      'change-by-login',
      '--login',
      person.username,
      '--password',
      'cli-new-password-2',
      '--name',
      'Renamed',
    )
    expect(both.code).toBe(0)
    expect(await status({ token: second })).toBe(401)
  })

  it('closes the socket of a deleted user, and demotes a former administrator at once', async () => {
    const admin = await world.admin()
    const gone = await world.newUser()
    const live = await openSocket(server.url, gone.as)
    expectNoContent(await world.request('DELETE', `/api/users/${gone.id}`, { as: admin.as }))
    expect(await pingOrClose(live)).toBe('close')

    const chief = await world.newUser({ admin: true })
    const chiefSocket = await openSocket(server.url, chief.as)
    const task = await tp.run(await tp.template('tick.sh'))
    try {
      await until('the administrator to see the task', () => ticks(chiefSocket, task.id).length > 2)
      const demoted = await world.request('PUT', `/api/users/${chief.id}`, {
        as: admin.as,
        json: { username: chief.username, name: chief.name, email: chief.email, admin: false },
      })
      expectNoContent(demoted)
      expect(await pingOrClose(chiefSocket)).toBe('pong')
      const cut = chiefSocket.seen.length
      const watcher = await openSocket(server.url, admin.as)
      const last = Math.max(...ticks(chiefSocket, task.id))
      await until('more output', () => ticks(watcher, task.id).some((n) => n >= last + 25))
      expect(chiefSocket.seen.slice(cut)).toEqual([])
      watcher.socket.close()
    } finally {
      await tp.p.request('POST', `/tasks/${task.id}/stop`, { force: true })
      await tp.waitFor(task.id)
      chiefSocket.socket.close()
    }
  }, 60_000)
})

describe.each(dialects())('sign-in throttling per address and account on %s', (dialect) => {
  let server: TestServer

  beforeAll(async () => {
    server = await startTestServer(dialect, {
      FLAGMAN_TRUST_PROXY: 'true',
      FLAGMAN_LOGIN_MAX_ATTEMPTS: '5',
      FLAGMAN_LOGIN_MAX_ATTEMPTS_PER_ADDRESS: '12',
      FLAGMAN_LOGIN_LOCK_SECONDS: '600',
    })
  })
  afterAll(async () => {
    await server?.stop()
  })

  /** A sign-in from the client address `from` (the trusted proxy's X-Forwarded-For). */
  const login = (from: string, auth: string, password: string): Promise<HttpResult> =>
    http(server.url, 'POST', '/api/auth/login', {
      json: { auth, password },
      headers: { 'X-Forwarded-For': from },
    })

  it("does not let wrong passwords for another name lock out the administrator's", async () => {
    const from = '192.0.2.10'
    for (let i = 0; i < 5; i += 1) expectError(await login(from, 'nobody', `wrong-${i}`), 401)
    expectError(await login(from, 'nobody', 'wrong-again'), 429, /try again/i)
    expectNoContent(await login(from, ADMIN.login, ADMIN.password))
  })

  it('counts one account whatever the case and spaces of the name', async () => {
    const from = '192.0.2.11'
    const names = ['Admin', 'ADMIN', ' admin', 'admin ', 'aDmIn']
    for (const [i, name] of names.entries()) {
      expectError(await login(from, name, `wrong-${i}`), 401)
    }
    expectError(await login(from, ADMIN.login, ADMIN.password), 429)
    // The lock is this account's: another name from the same address may still try.
    expectError(await login(from, 'someone-else', 'wrong'), 401)
  })

  it('locks an unknown account exactly like an existing one', async () => {
    const locked: HttpResult[] = []
    for (const [from, name] of [
      ['192.0.2.12', ADMIN.login],
      ['192.0.2.13', 'no-such-user'],
    ] as const) {
      for (let i = 0; i < 5; i += 1) expectError(await login(from, name, `wrong-${i}`), 401)
      locked.push(await login(from, name, 'wrong-again'))
    }
    const [existing, unknown] = locked.map((r) => expectError(r, 429))
    expect(existing?.replace(/\d+/, 'N')).toBe(unknown?.replace(/\d+/, 'N'))
    expect(locked.map((r) => r.headers.get('set-cookie'))).toEqual([null, null])
  })

  it('refuses an address that fails across many accounts, even the right password', async () => {
    const from = '192.0.2.14'
    // Parallel guesses for twenty names: only as many are checked as the ceiling allows.
    const burst = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(from, `name-${i}`, 'wrong')),
    )
    const statuses = burst.map((r) => r.status).sort()
    expect(statuses).toEqual([...Array(12).fill(401), ...Array(8).fill(429)])
    expectError(await login(from, ADMIN.login, ADMIN.password), 429, /try again/i)
    // Another address is not affected.
    expectNoContent(await login('192.0.2.15', ADMIN.login, ADMIN.password))
  })
})
