import fastifyWebsocket from '@fastify/websocket'
import type { RealtimeMessage, TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'
import { realtimeSocket } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import type { Duplex } from 'node:stream'
import type { WebSocket } from 'ws'
import { onAccessChange, type AccessChange } from './access-changes.js'
import type { Actor } from './actor.js'
import { hasBearer, recheckActor, resolveActor } from './auth.js'
import { isCrossSite } from './security.js'

/** Where task messages come from (the tasks module's event emitter). */
export interface RealtimeSource {
  on(event: 'update', listener: (message: TaskUpdateMessage) => void): unknown
  on(event: 'logs', listener: (messages: TaskLogMessage[]) => void): unknown
  /** Messages of tasks another server instance runs. */
  on(event: 'relayedUpdate', listener: (message: TaskUpdateMessage) => void): unknown
  on(event: 'relayedLogs', listener: (messages: TaskLogMessage[]) => void): unknown
  /** Lets task output wait while a client is behind (see `catchUp`). */
  reportBacklog(backlog: () => Promise<void> | null): void
}

/**
 * Every client's credentials and memberships are read again this often. Changes made by
 * this server are applied at once (see `AccessChange`); this catches the others, such as
 * a password changed with the command-line tool.
 */
const RECHECK_MS = 5_000
/** Close code (private range) for a socket whose session or token has ended. */
const SIGNED_OUT = 4401
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
  /** Counts access changes, so a read of memberships that one overtook is not applied. */
  version: number
  /** A read of the client's credentials and memberships is under way. */
  reloading: boolean
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
function catchUp(client: Client, dropped?: () => void): Promise<void> {
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
      dropped?.()
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
 * the projects it belongs to (administrators: all). Authenticated before the upgrade; a
 * cookie-authenticated upgrade from another site's page is refused like a cross-site write
 * (browsers always send Origin on websocket handshakes; clients without one are not
 * browsers, and bearer-token clients are not affected). Access changes made through this
 * server apply before the answer to the change leaves: a former member gets no further
 * message of the project, and a socket whose session or token ended is closed.
 */
export async function registerRealtime(
  app: FastifyInstance,
  events: RealtimeSource,
): Promise<void> {
  await app.register(fastifyWebsocket, { options: { maxPayload: 512 } })
  const clients = new Set<Client>()
  const db = app.db
  const metrics = app.hasDecorator('metrics') ? app.metrics : undefined
  metrics?.countClients(() => clients.size)
  const slowClientDropped = (): void => metrics?.slowClientDropped()

  /** Takes the client out at once and closes its socket, saying why. */
  const drop = (client: Client, code: number, reason: string): void => {
    clients.delete(client)
    if (client.socket.readyState === client.socket.OPEN) client.socket.close(code, reason)
    else client.socket.terminate()
  }

  /**
   * Reads the client's credentials and memberships again: a client whose session or token
   * has ended is dropped. When an access change arrives meanwhile, the read starts over, so
   * it never brings back what the change took away.
   */
  const reload = async (client: Client): Promise<void> => {
    if (client.reloading) {
      // The read under way starts over when it sees the change that asked for this one.
      return
    }
    client.reloading = true
    try {
      for (let attempt = 0; attempt < 5 && clients.has(client); attempt += 1) {
        const version = client.version
        const actor = await recheckActor(db, client.actor)
        if (!actor) {
          if (clients.has(client)) drop(client, SIGNED_OUT, 'Signed out')
          return
        }
        const projects = actor.admin ? new Set<number>() : await memberships(db, actor.id)
        if (client.version !== version) continue
        client.actor = actor
        client.projects = projects
        return
      }
    } catch {
      // The next periodic check tries again; until then the client keeps what it had.
    } finally {
      client.reloading = false
    }
  }

  const applyChange = (change: AccessChange): void => {
    for (const client of clients) {
      const { actor } = client
      switch (change.kind) {
        case 'membership-ended':
          if (actor.id !== change.userId) break
          client.projects.delete(change.projectId)
          client.version += 1
          break
        case 'project-deleted':
          client.projects.delete(change.projectId)
          client.version += 1
          break
        case 'session-ended':
          if (actor.sessionId === change.sessionId) drop(client, SIGNED_OUT, 'Signed out')
          break
        case 'tokens-ended':
          if (actor.tokenId !== null && change.tokenIds.includes(actor.tokenId)) {
            drop(client, SIGNED_OUT, 'API token expired')
          }
          break
        case 'credentials-ended':
          if (actor.id !== change.userId) break
          if (change.keepSessionId !== null && actor.sessionId === change.keepSessionId) break
          drop(client, SIGNED_OUT, 'Signed out')
          break
        case 'rights-reduced':
          if (actor.id !== change.userId) break
          // Nothing is sent until what the user may still see has been read again.
          client.actor = { ...actor, admin: false }
          client.projects = new Set()
          client.version += 1
          void reload(client)
          break
      }
    }
  }
  const stopListening = onAccessChange(db, applyChange)

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
        slowClientDropped()
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
  events.on('relayedUpdate', (message) => send([message]))
  events.on('relayedLogs', (messages) => send(messages))
  // Task output waits for clients that fall behind instead of piling up in memory for them.
  events.reportBacklog(() => {
    let waits: Promise<void>[] | null = null
    for (const client of clients) {
      if (client.socket.bufferedAmount < BEHIND_BYTES) continue
      ;(waits ??= []).push(catchUp(client, slowClientDropped))
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
  }, app.config.wsPingSeconds * 1000)
  ping.unref()
  const recheck = setInterval(() => {
    for (const client of clients) void reload(client)
  }, RECHECK_MS)
  recheck.unref()
  app.addHook('onClose', async () => {
    clearInterval(ping)
    clearInterval(recheck)
    stopListening()
  })

  app.route({
    method: 'GET',
    url: realtimeSocket.path,
    preValidation: async (request, reply) => {
      if (!hasBearer(request) && isCrossSite(request)) {
        await reply.status(403).send({ error: 'Cross-site websocket refused' })
        return reply
      }
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
        version: 0,
        reloading: false,
      }
      socket.on('pong', () => (client.alive = true))
      socket.on('message', () => {})
      socket.on('close', () => clients.delete(client))
      socket.on('error', () => clients.delete(client))
      // Listed before its memberships are read, so no access change can pass it by; until
      // they are, a user who is not an administrator gets nothing.
      clients.add(client)
      await reload(client)
    },
  })
}
