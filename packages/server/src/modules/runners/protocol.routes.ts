import {
  RunnerPollQuery,
  RunnerProgressBody,
  runnerProtocolRoutes,
  describeIssues,
  type RouteDef,
} from '@flagman/contract'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { BadRequestError } from '../../platform/errors.js'
import { authenticateRunner } from './runner-auth.js'
import { PollMemory } from './long-poll.js'
import {
  pollRunner,
  registerRunner,
  sealAnswer,
  unregisterRunner,
  type ProtocolContext,
} from './protocol.service.js'
import type { RunnerRow } from './runners.repository.js'

/** A registration is a few fields and a public key. */
export const MAX_REGISTRATION_BYTES = 64 * 1024
/** A progress report carries log lines; a runner sends them in batches far below this. */
export const MAX_PROGRESS_BYTES = 16 * 1024 * 1024

interface Authenticated {
  request: FastifyRequest
  reply: FastifyReply
  runner: RunnerRow
}

/**
 * The runner↔server protocol. These routes are public in the contract: runners have no
 * session, they carry their token. The token is checked before the body is read, so an
 * unknown caller can not make the server read a large body; nothing of a payload is logged.
 */
export function mountRunnerProtocol(app: FastifyInstance): void {
  const ctx: ProtocolContext = {
    db: app.db,
    config: app.config,
    box: app.secrets,
    work: app.tasks,
    log: app.log,
    memory: new PollMemory(),
  }
  const runners = new WeakMap<FastifyRequest, RunnerRow>()

  const authenticated = (
    route: RouteDef,
    bodyLimit: number | undefined,
    handler: (call: Authenticated) => Promise<unknown>,
  ): void => {
    app.route({
      method: route.method,
      url: route.path,
      ...(bodyLimit ? { bodyLimit } : {}),
      onRequest: async (request) => {
        runners.set(request, await authenticateRunner(app.db, request))
      },
      handler: async (request, reply) => {
        const runner = runners.get(request)
        if (!runner) throw new Error('runner request without its runner')
        return handler({ request, reply, runner })
      },
    })
  }

  const r = runnerProtocolRoutes
  app.route({
    method: r.register.method,
    url: r.register.path,
    bodyLimit: MAX_REGISTRATION_BYTES,
    handler: async (request, reply) => {
      const token = await registerRunner(ctx, request.body)
      return reply.status(200).send({ token })
    },
  })

  authenticated(r.poll, undefined, async ({ request, reply, runner }) => {
    const parsed = RunnerPollQuery.safeParse(request.query ?? {})
    if (!parsed.success) throw new BadRequestError(describeIssues(parsed.error.issues))
    // A long poll ends early when the runner hangs up: nobody would read the answer.
    const abort = new AbortController()
    const onClose = () => abort.abort()
    reply.raw.once('close', onClose)
    try {
      const answer = await pollRunner(ctx, runner, parsed.data, abort.signal)
      // Gone: the request is ended all the same, so nothing of it lingers.
      if (answer === null) return reply.status(204).send()
      const sealed = sealAnswer(runner, answer, parsed.data.encryption)
      reply.header('Cache-Control', 'no-store')
      if (sealed === null) return reply.status(200).send(answer)
      return reply.status(200).type('application/octet-stream').send(sealed)
    } finally {
      reply.raw.off('close', onClose)
    }
  })

  authenticated(r.progress, MAX_PROGRESS_BYTES, async ({ request, reply, runner }) => {
    const parsed = RunnerProgressBody.safeParse(request.body)
    if (!parsed.success) throw new BadRequestError('Invalid format')
    await app.tasks.runnerReport(runner.id, parsed.data.Jobs)
    return reply.status(204).send()
  })

  authenticated(r.unregister, undefined, async ({ reply, runner }) => {
    await unregisterRunner(ctx, runner)
    return reply.status(204).send()
  })
}
