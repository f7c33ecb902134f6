import fastifyWebsocket from '@fastify/websocket'
import type { RealtimeMessage, TaskLogMessage, TaskUpdateMessage } from '@flagman/contract'
import type { Db } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import type { WebSocket } from 'ws'
import type { Actor } from './actor.js'
import { resolveActor } from './auth.js'

/** Where task messages come from (the tasks module's event emitter). */
export interface RealtimeSource {
  on(event: 'update', listener: (message: TaskUpdateMessage) => void): unknown
  on(event: 'logs', listener: (messages: TaskLogMessage[]) => void): unknown
}

const PING_MS = 30_000
const MEMBERSHIP_REFRESH_MS = 5_000
/** A client this far behind is disconnected rather than buffered without end. */
const MAX_BUFFERED_BYTES = 64 * 1024 * 1024

interface Client {
  socket: WebSocket
  actor: Actor
  projects: Set<number>
  alive: boolean
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
    const frames = new Map<number, string[]>()
    for (const message of messages) {
      let list = frames.get(message.project_id)
      if (!list) frames.set(message.project_id, (list = []))
      list.push(JSON.stringify(message))
    }
    for (const client of clients) {
      if (client.socket.readyState !== client.socket.OPEN) continue
      if (client.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
        client.socket.terminate()
        continue
      }
      for (const [projectId, list] of frames) {
        if (!client.actor.admin && !client.projects.has(projectId)) continue
        for (const frame of list) client.socket.send(frame)
      }
    }
  }
  events.on('update', (message) => send([message]))
  events.on('logs', (messages) => send(messages))

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
      const client: Client = { socket, actor, projects: new Set(), alive: true }
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
