import fastifyWebsocket from '@fastify/websocket'
import type { RealtimeMessage, TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import type { Actor } from './actor.js'
import { resolveActor } from './auth.js'

/** Where task messages come from (the tasks module's event emitter). */
export interface RealtimeSource {
  on(event: 'update', listener: (message: TaskUpdateMessage) => void): unknown
  on(event: 'logs', listener: (messages: TaskLogMessage[]) => void): unknown
  /** Lets task output wait while a client is behind (see `catchUp`). */
  reportBacklog(backlog: () => Promise<void> | null): void
}

const PING_MS = 30_000
const MEMBERSHIP_REFRESH_MS = 5_000
/** A client with this much not yet sent holds task output back until it has caught up. */
const BEHIND_BYTES = 8 * 1024 * 1024
/** A client that stays behind this long is disconnected, so one slow viewer can not stall tasks. */
const MAX_BEHIND_MS = 5_000
/** A client this far behind is disconnected at once rather than buffered without end. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024

interface Client {
  socket: WebSocket
  /** The connection under the websocket: a batch of log frames is written to it in one call. */
  stream: Duplex
  actor: Actor
  projects: Set<number>
  alive: boolean
  /** Settles when the client has caught up, is disconnected, or was given up on. */
  caughtUp: Promise<void> | null
}

/**
 * One message as JSON text. Log lines are by far the most numerous, so their fixed shape is
 * written directly (the same text `JSON.stringify` gives, in a fraction of its time).
 */
function encode(message: RealtimeMessage): string {
  if (message.type !== 'log') return JSON.stringify(message)
  return `{"type":"log","task_id":${JSON.stringify(message.task_id)},"project_id":${JSON.stringify(message.project_id)},"time":${JSON.stringify(message.time)},"output":${JSON.stringify(message.output)}}`
}

/**
 * Websocket text frames, one per message, in one buffer: FIN and the text opcode, the
 * payload length (7 bits, or 126 and 16 bits, or 127 and 64 bits) and the UTF-8 payload;
 * frames from the server are never masked (RFC 6455 §5.2). The websocket library writes its
 * own frames (pings, close) whole and in order on the same connection, so both interleave
 * only between frames.
 */
export function textFrames(texts: readonly string[]): Buffer {
  const lengths = texts.map((text) => Buffer.byteLength(text))
  let size = 0
  for (const length of lengths) size += length + (length < 126 ? 2 : length < 65_536 ? 4 : 10)
  const buffer = Buffer.allocUnsafe(size)
  let offset = 0
  texts.forEach((text, index) => {
    const length = lengths[index] ?? 0
    buffer[offset] = 0x81
    if (length < 126) {
      buffer[offset + 1] = length
      offset += 2
    } else if (length < 65_536) {
      buffer[offset + 1] = 126
      buffer.writeUInt16BE(length, offset + 2)
      offset += 4
    } else {
      buffer[offset + 1] = 127
      buffer.writeBigUInt64BE(BigInt(length), offset + 2)
      offset += 10
    }
    offset += buffer.write(text, offset, 'utf8')
  })
  return buffer
}

/** Waits for a client that is behind to take what it was sent, or disconnects it. */
function catchUp(client: Client): Promise<void> {
  client.caughtUp ??= new Promise<void>((resolve) => {
    const done = (): void => {
      clearTimeout(timer)
      client.stream.off('drain', done)
      client.socket.off('close', done)
      client.caughtUp = null
      resolve()
    }
    const timer = setTimeout(() => {
      client.socket.terminate()
      done()
    }, MAX_BEHIND_MS)
    client.stream.once('drain', done)
    client.socket.once('close', done)
  })
  return client.caughtUp
}

async function memberships(db: Db, userId: number): Promise<Set<number>> {
  const rows = await db.kysely
    .selectFrom('project_user')
    .select('project_id')
    .where('user_id', '=', userId)
    .execute()
  return new Set(rows.map((r) => r.project_id))
}

/**
 * `/api/ws`: pushes task `update` and `log` messages to signed-in clients, each only for
 * the projects it belongs to (administrators: all). Authenticated before the upgrade.
 */
export async function registerRealtime(
  app: FastifyInstance,
  events: RealtimeSource,
): Promise<void> {
  await app.register(fastifyWebsocket, { options: { maxPayload: 512 } })
  const clients = new Set<Client>()

  const send = (messages: RealtimeMessage[]): void => {
    if (clients.size === 0 || messages.length === 0) return
    const texts = new Map<number, string[]>()
    for (const message of messages) {
      let list = texts.get(message.project_id)
      if (!list) texts.set(message.project_id, (list = []))
      list.push(encode(message))
    }
    // The frames of each project are built once, when a client first needs them.
    const frames = new Map<number, Buffer>()
    const framesOf = (projectId: number, list: string[]): Buffer => {
      let buffer = frames.get(projectId)
      if (!buffer) frames.set(projectId, (buffer = textFrames(list)))
      return buffer
    }
    for (const client of clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue
      if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        client.socket.terminate()
        continue
      }
      // One message per frame keeps the wire format; a batch of frames is one write on the
      // connection instead of one (or two) per log line.
      for (const [projectId, list] of texts) {
        if (!client.actor.admin && !client.projects.has(projectId)) continue
        client.stream.write(framesOf(projectId, list))
      }
    }
  }
  events.on('update', (message) => send([message]))
  events.on('logs', (messages) => send(messages))
  // Task output waits for clients that fall behind instead of piling up in memory for them.
  events.reportBacklog(() => {
    let waits: Promise<void>[] | null = null
    for (const client of clients) {
      if (client.socket.bufferedAmount < BEHIND_BYTES) continue
      ;(waits ??= []).push(catchUp(client))
    }
    return waits && Promise.all(waits).then(() => undefined)
  })

  const ping = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate()
        continue
      }
      client.alive = false
      client.socket.ping()
    }
  }, PING_MS)
  ping.unref()
  const refresh = setInterval(() => {
    for (const client of clients) {
      if (client.actor.admin) continue
      memberships(app.db, client.actor.id)
        .then((projects) => (client.projects = projects))
        .catch(() => {})
    }
  }, MEMBERSHIP_REFRESH_MS)
  refresh.unref()
  app.addHook('onClose', async () => {
    clearInterval(ping)
    clearInterval(refresh)
  })

  app.route({
    method: 'GET',
    url: '/api/ws',
    preValidation: async (request, reply) => {
      const actor = await resolveActor(app.db, request)
      if (!actor) {
        await reply.status(401).send({ error: 'Unauthorized' })
        return reply
      }
      ;(request as unknown as { realtimeActor: Actor }).realtimeActor = actor
    },
    handler: async (_request, reply) => {
      await reply.status(400).send({ error: 'Expected a websocket upgrade' })
    },
    wsHandler: async (socket, request) => {
      const actor = (request as unknown as { realtimeActor: Actor }).realtimeActor
      const client: Client = {
        socket,
        stream: request.raw.socket,
        actor,
        projects: new Set(),
        alive: true,
        caughtUp: null,
      }
      socket.on('pong', () => (client.alive = true))
      socket.on('message', () => {})
      socket.on('close', () => clients.delete(client))
      socket.on('error', () => clients.delete(client))
      if (!actor.admin) {
        try {
          client.projects = await memberships(app.db, actor.id)
        } catch {
          socket.close()
          return
        }
      }
      clients.add(client)
    },
  })
}
