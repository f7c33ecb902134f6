import type { Socket } from 'node:net'
import { RealtimeMessage } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { textFrames } from '../../src/platform/realtime.js'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { expectNoContent } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'
import { until } from '../support/wait.js'

function connect(
  url: string,
  cookie?: string,
  options: WebSocket.ClientOptions = {},
): Promise<{ socket: WebSocket; messages: RealtimeMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`, {
      ...options,
      headers: cookie ? { Cookie: cookie } : {},
    })
    const messages: RealtimeMessage[] = []
    socket.on('message', (data) => messages.push(RealtimeMessage.parse(JSON.parse(String(data)))))
    socket.once('open', () => resolve({ socket, messages }))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

/** Resolves once the server has answered a ping: it has read everything sent before. */
function roundTrip(socket: WebSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('pong', () => resolve())
    socket.once('close', () => reject(new Error('the socket closed')))
    socket.ping()
  })
}

/** Polls `check` until it holds, failing after the deadline. */

/** Reads server frames as RFC 6455 §5.2 lays them out. */
function readFrames(buffer: Buffer): Array<{ fin: boolean; opcode: number; text: string }> {
  const frames: Array<{ fin: boolean; opcode: number; text: string }> = []
  let offset = 0
  while (offset < buffer.length) {
    const first = buffer[offset] ?? 0
    const second = buffer[offset + 1] ?? 0
    expect(second & 0x80, 'server frames are not masked').toBe(0)
    let length = second & 0x7f
    offset += 2
    if (length === 126) {
      length = buffer.readUInt16BE(offset)
      offset += 2
    } else if (length === 127) {
      length = Number(buffer.readBigUInt64BE(offset))
      offset += 8
    }
    const text = buffer.subarray(offset, offset + length).toString('utf8')
    frames.push({ fin: (first & 0x80) !== 0, opcode: first & 0x0f, text })
    offset += length
  }
  return frames
}

describe('websocket frames', () => {
  it('writes one final text frame per message, whatever its length', () => {
    const texts = ['', 'a', 'é'.repeat(100), 'x'.repeat(70_000), '{"type":"log"}']
    expect(readFrames(textFrames(texts))).toEqual(
      texts.map((text) => ({ fin: true, opcode: 1, text })),
    )
  })
})

describe.each(dialects())('websocket on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  let member: Person
  let outsider: Person
  let tp: TaskProject

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect)
    world = new World(server)
    await activateScriptApps(world)
    member = await world.newUser()
    outsider = await world.newUser()
    tp = await TaskProject.create(world, repo.path)
    await world.addMember(tp.p.projectId, member.id, 'task_runner')
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('refuses an unauthenticated upgrade', async () => {
    await expect(connect(server.url)).rejects.toThrow(/HTTP 401/)
    await expect(connect(server.url, 'semaphore=nonsense')).rejects.toThrow(/HTTP 401/)
  })

  it('sends update and log messages to members only', async () => {
    const mine = await connect(server.url, member.as.cookie)
    const theirs = await connect(server.url, outsider.as.cookie)
    try {
      const task = await tp.run(await tp.template('ok.sh'))
      await tp.waitFor(task.id)
      await until(
        'the last update and the output',
        () =>
          mine.messages.some(
            (m) => m.type === 'update' && m.task_id === task.id && m.status === 'success',
          ) && mine.messages.some((m) => m.type === 'log' && m.output === 'hello from bash'),
      )
      const statuses = mine.messages.flatMap((m) =>
        m.type === 'update' && m.task_id === task.id ? [m.status] : [],
      )
      expect(statuses).toEqual(['waiting', 'starting', 'running', 'success'])
      const logs = mine.messages.filter((m) => m.type === 'log' && m.task_id === task.id)
      expect(logs[0]).toMatchObject({
        project_id: tp.p.projectId,
        output: `Task ${task.id} added to queue`,
      })
      // Client messages are ignored; the connection stays up. The pong comes after the
      // server has read the message.
      mine.socket.send('hello')
      await roundTrip(mine.socket)
      expect(mine.socket.readyState).toBe(WebSocket.OPEN)
      // The outsider has seen everything the server sent it up to now: nothing.
      await roundTrip(theirs.socket)
      expect(theirs.messages).toEqual([])
    } finally {
      mine.socket.close()
      theirs.socket.close()
    }
  })

  it('stops sending a project to a member the moment they are removed', async () => {
    const admin = await world.admin()
    const leaving = await world.newUser()
    await world.addMember(tp.p.projectId, leaving.id, 'guest')
    const witness = await connect(server.url, admin.as.cookie)
    const mine = await connect(server.url, leaving.as.cookie)
    try {
      const before = await tp.run(await tp.template('ok.sh'))
      await until('the member to see a task', () =>
        mine.messages.some((m) => m.type === 'update' && m.task_id === before.id),
      )
      expectNoContent(
        await world.request('DELETE', `/api/project/${tp.p.projectId}/users/${leaving.id}`, {
          as: admin.as,
        }),
      )
      const after = await tp.run(await tp.template('ok.sh'))
      await until('the task to end', () =>
        witness.messages.some(
          (m) => m.type === 'update' && m.task_id === after.id && m.status === 'success',
        ),
      )
      await roundTrip(mine.socket)
      expect(mine.messages.filter((m) => m.task_id === after.id)).toEqual([])
      expect(mine.socket.readyState).toBe(WebSocket.OPEN)
    } finally {
      witness.socket.close()
      mine.socket.close()
    }
  })

  it('closes a socket whose session was ended elsewhere, at its periodic check', async () => {
    const person = await world.newUser()
    const session = await world.signIn(person.username, person.password)
    const live = await connect(server.url, session.cookie)
    const closed = new Promise<number>((resolve) => live.socket.once('close', resolve))
    // As another server process on the same database would: the row changes, no one is told.
    const db = await world.openDb()
    try {
      await db.kysely
        .updateTable('session')
        .set({ expired: 1 })
        .where('user_id', '=', person.id)
        .execute()
    } finally {
      await db.destroy()
    }
    expect(await closed).toBe(4401)
  })

  it('holds output back for a client that stops reading, then lets it go; nothing is lost', async () => {
    const reader = await connect(server.url, member.as.cookie)
    const stalled = await connect(server.url, member.as.cookie)
    // The stalled client stops reading from its connection, as a frozen browser tab would.
    const raw = (stalled.socket as unknown as { _socket: Socket })._socket
    raw.pause()
    const stalledClosed = new Promise<void>((resolve) => stalled.socket.once('close', resolve))
    try {
      const task = await tp.run(await tp.template('flood.sh'))
      expect((await tp.waitFor(task.id, undefined, 60_000)).status).toBe('success')
      const expected = Array.from({ length: 300_000 }, (_, i) => `flood line ${i + 1}`)
      const flood = (messages: RealtimeMessage[]) =>
        messages.flatMap((m) =>
          m.type === 'log' && m.task_id === task.id && m.output.startsWith('flood ')
            ? [m.output]
            : [],
        )
      await until('the whole flood', () => flood(reader.messages).length >= expected.length, 30_000)
      expect(flood(reader.messages)).toEqual(expected)
      expect((await tp.lines(task.id)).filter((l) => l.startsWith('flood '))).toEqual(expected)
      // The server gave up on the client that did not read instead of stalling the task.
      raw.resume()
      await stalledClosed
      expect(flood(stalled.messages).length).toBeLessThan(expected.length)
    } finally {
      reader.socket.close()
      stalled.socket.terminate()
    }
  }, 90_000)
})

// Keep-alive does not depend on the database: one dialect is enough.
describe.each(dialects().slice(0, 1))('websocket keep-alive on %s', (dialect) => {
  let server: TestServer
  let world: World
  let repo: ReturnType<typeof gitFixture>
  let tp: TaskProject

  beforeAll(async () => {
    repo = gitFixture()
    server = await startTestServer(dialect, { FLAGMAN_WS_PING_SECONDS: '1' })
    world = new World(server)
    await activateScriptApps(world)
    tp = await TaskProject.create(world, repo.path)
  }, 60_000)

  afterAll(async () => {
    await server?.stop()
    repo?.dispose()
  })

  it('disconnects a client that stops answering pings, and keeps one that answers', async () => {
    const admin = await world.admin()
    const silent = await connect(server.url, admin.as.cookie, { autoPong: false })
    const healthy = await connect(server.url, admin.as.cookie)
    try {
      let pings = 0
      const silentClosed = new Promise<number>((resolve) => silent.socket.once('close', resolve))
      const threePings = new Promise<void>((resolve) =>
        healthy.socket.on('ping', () => {
          pings += 1
          if (pings === 3) resolve()
        }),
      )
      // A missed pong ends the connection at the next ping (1006: no close frame).
      expect(await silentClosed).toBe(1006)
      await threePings
      await roundTrip(healthy.socket)
      expect(healthy.socket.readyState).toBe(WebSocket.OPEN)
    } finally {
      silent.socket.terminate()
      healthy.socket.close()
    }
  })

  it('forgets a client whose connection is destroyed; output goes on to the others', async () => {
    const admin = await world.admin()
    const reader = await connect(server.url, admin.as.cookie)
    const dropped = await connect(server.url, admin.as.cookie)
    try {
      const task = await tp.run(await tp.template('many.sh'))
      await until('the first lines', () =>
        dropped.messages.some((m) => m.type === 'log' && m.task_id === task.id),
      )
      // The connection goes away without a close frame, as when a laptop drops off the network.
      ;(dropped.socket as unknown as { _socket: Socket })._socket.destroy()
      expect((await tp.waitFor(task.id)).status).toBe('success')
      const lines = () =>
        reader.messages.filter(
          (m) => m.type === 'log' && m.task_id === task.id && m.output.startsWith('line '),
        ).length
      await until('every line', () => lines() >= 10_000)
      expect(lines()).toBe(10_000)
      await roundTrip(reader.socket)
    } finally {
      reader.socket.close()
      dropped.socket.terminate()
    }
  })
})
