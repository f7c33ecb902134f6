import { randomBytes } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Task } from '@flagman/contract'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScratchDatabase, dialects, type ScratchDatabase } from '../support/databases.js'
import { World } from '../support/fixtures.js'
import { http, type HttpResult } from '../support/http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { activateScriptApps, gitRepository, TaskProject } from '../support/tasks.js'
import { until } from '../support/wait.js'
import WebSocket from 'ws'

/*
 * A rolling restart of three instances on one PostgreSQL database under a steady load,
 * behind a load balancer played by the test: it sends requests round-robin to the instances
 * whose readiness answers 200 (checked every 100 ms, as a balancer's health check does). One
 * at a time, a new instance is started and an old one is sent SIGTERM. Not one request may
 * fail, and every task posted during the restart runs once, to success: running tasks finish
 * on the instance that drains, waiting ones are run by the others.
 */

const WORKERS = 4
const HEALTH_EVERY_MS = 100

interface Member {
  server: TestServer
  ready: boolean
}

describe.runIf(dialects().includes('postgres'))(
  'a rolling restart of three instances on one PostgreSQL database',
  () => {
    const env = {
      FLAGMAN_ACCESS_KEY_ENCRYPTION: randomBytes(32).toString('base64'),
      FLAGMAN_INSTANCE_TIMEOUT_SECONDS: '10',
      // Far longer than the test may take: each drain must end on its own, once its tasks
      // have finished and the balancer has moved away, although a console's websocket is
      // open on every instance.
      FLAGMAN_SHUTDOWN_DRAIN_SECONDS: '600',
    }
    const repo = gitRepository({ 'short.sh': 'sleep 0.5\necho "done $SEMAPHORE_TASK_ID"\n' })
    let database: ScratchDatabase
    const members: Member[] = []

    const startMember = async (): Promise<Member> => {
      const server = await startTestServer('postgres', env, {
        reuse: {
          dataDir: mkdtempSync(join(tmpdir(), 'flagman-test-')),
          // The test owns the database: no instance drops it when it stops.
          scratch: { url: database.url, drop: async () => {} },
        },
      })
      const member = { server, ready: false }
      members.push(member)
      return member
    }

    beforeAll(async () => {
      database = await createScratchDatabase('postgres')
      for (let i = 0; i < 3; i += 1) await startMember()
    }, 90_000)

    afterAll(async () => {
      for (const member of members) await member.server.stop()
      await database?.drop()
      repo.dispose()
    })

    it('answers every request and runs every task once while each instance is replaced', async () => {
      const world = new World(members[0]!.server)
      await activateScriptApps(world)
      const tp = await TaskProject.create(world, repo.path)
      const templateId = await tp.template('short.sh')
      const as = tp.p.as
      const base = `/api/project/${tp.p.projectId}`
      // A console open on each instance, as during a real upgrade: its live socket stays
      // until the instance closes.
      const consoles: WebSocket[] = []
      const openConsole = (server: TestServer) =>
        new Promise<void>((resolve, reject) => {
          const socket = new WebSocket(`${server.url.replace(/^http/, 'ws')}/api/ws`, {
            headers: { Cookie: as.cookie ?? '' },
          })
          socket.on('error', () => {})
          socket.once('open', () => resolve())
          socket.once('unexpected-response', () => reject(new Error('no live socket')))
          consoles.push(socket)
        })
      for (const member of members) await openConsole(member.server)

      // The balancer's health checks.
      let balancing = true
      const checks = (async () => {
        while (balancing) {
          await Promise.all(
            members.map(async (member) => {
              try {
                const answer = await fetch(`${member.server.url}/api/health/ready`)
                member.ready = answer.status === 200
              } catch {
                member.ready = false
              }
            }),
          )
          await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS))
        }
      })()
      await new Promise((resolve) => setTimeout(resolve, 2 * HEALTH_EVERY_MS))

      let next = 0
      const pick = (): TestServer => {
        const ready = members.filter((member) => member.ready)
        if (ready.length === 0) throw new Error('no instance is ready')
        next = (next + 1) % ready.length
        return ready[next]!.server
      }
      const failures: string[] = []
      const posted: number[] = []
      let answered = 0
      const send = async (method: string, path: string, json?: unknown): Promise<HttpResult> => {
        const server = pick()
        try {
          const result = await http(server.url, method, path, json ? { as, json } : { as })
          answered += 1
          return result
        } catch (error) {
          failures.push(`${method} ${path} on ${server.url}: ${(error as Error).message}`)
          throw error
        }
      }
      const load = async (worker: number) => {
        for (let round = 0; balancing; round += 1) {
          try {
            const calls: [string, string, unknown?][] = [
              ['GET', '/api/projects'],
              ['GET', `${base}/templates`],
              ['GET', `${base}/tasks/last`],
              ['GET', '/api/user'],
            ]
            const [method, path] = calls[round % calls.length]!
            const read = await send(method, path)
            if (read.status !== 200) failures.push(`${method} ${path}: ${read.status} ${read.text}`)
            // A task now and then, a few dozen in all.
            if (round % 16 === worker && posted.length < 40) {
              const created = await send('POST', `${base}/tasks`, { template_id: templateId })
              if (created.status === 201) posted.push(Task.parse(created.body).id)
              else failures.push(`POST task: ${created.status} ${created.text}`)
            }
          } catch {
            // Counted in `failures` by `send`.
          }
          await new Promise((resolve) => setTimeout(resolve, 10))
        }
      }
      const workers = Array.from({ length: WORKERS }, (_, worker) => load(worker))

      // Replace each of the three, one at a time: a new one first, then the old one goes.
      const originals = [...members]
      for (const old of originals) {
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        const fresh = await startMember()
        await until('the new instance to be ready', () => fresh.ready)
        await openConsole(fresh.server)
        await old.server.kill!('SIGTERM')
        members.splice(members.indexOf(old), 1)
        await old.server.stop()
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      balancing = false
      await Promise.all(workers)
      await checks
      for (const socket of consoles) socket.close()

      expect(failures).toEqual([])
      expect(answered).toBeGreaterThan(100)
      expect(posted.length).toBeGreaterThan(5)
      // Read through one of the new instances: the first ones are gone.
      const url = members[0]!.server.url
      for (const id of posted) {
        let task = Task.parse((await http(url, 'GET', `${base}/tasks/${id}`, { as })).body)
        const deadline = Date.now() + 60_000
        while (!['success', 'error', 'stopped'].includes(task.status) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100))
          task = Task.parse((await http(url, 'GET', `${base}/tasks/${id}`, { as })).body)
        }
        expect(task.status, `task ${id}`).toBe('success')
        const output = await http(url, 'GET', `${base}/tasks/${id}/output`, { as })
        const lines = (output.body as { output: string }[]).map((line) => line.output)
        expect(lines.filter((line) => line === `done ${id}`)).toHaveLength(1)
      }
    }, 240_000)
  },
)
