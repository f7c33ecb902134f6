import type { Socket } from 'node:net'
import { RealtimeMessage } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { textFrames } from '../../src/platform/realtime.js'
import { dialects } from '../support/databases.js'
import { World, type Person } from '../support/fixtures.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitFixture, TaskProject } from '../support/tasks.js'

function connect(
  url: string,
  cookie?: string,
): Promise<{ socket: WebSocket; messages: RealtimeMessage[] }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/api/ws`, {
      headers: cookie ? { Cookie: cookie } : {},
    })
    const messages: RealtimeMessage[] = []
    socket.on('message', (data) => messages.push(RealtimeMessage.parse(JSON.parse(String(data)))))
    socket.once('open', () => resolve({ socket, messages }))
    socket.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)))
    socket.once('error', reject)
  })
}

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
      const deadline = Date.now() + 5000
      const done = () =>
        mine.messages.some(
          (m) => m.type === 'update' && m.task_id === task.id && m.status === 'success',
        ) && mine.messages.some((m) => m.type === 'log' && m.output === 'hello from bash')
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
      expect(done()).toBe(true)
      const statuses = mine.messages.flatMap((m) =>
        m.type === 'update' && m.task_id === task.id ? [m.status] : [],
      )
      expect(statuses).toEqual(['waiting', 'starting', 'running', 'success'])
      const logs = mine.messages.filter((m) => m.type === 'log' && m.task_id === task.id)
      expect(logs[0]).toMatchObject({
        project_id: tp.p.projectId,
        output: `Task ${task.id} added to queue`,
      })
      // Client messages are ignored; the connection stays up.
      mine.socket.send('hello')
      await new Promise((r) => setTimeout(r, 100))
      expect(mine.socket.readyState).toBe(WebSocket.OPEN)
      expect(theirs.messages).toEqual([])
    } finally {
      mine.socket.close()
      theirs.socket.close()
    }
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
      const deadline = Date.now() + 30_000
      while (flood(reader.messages).length < expected.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50))
      }
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
