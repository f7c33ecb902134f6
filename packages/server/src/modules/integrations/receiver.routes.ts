import { integrationReceiverRoutes } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { TooManyRequestsError } from '../../platform/errors.js'
import { mount, type HandlerContext } from '../../platform/router.js'
import { RateLimiter } from './rate-limiter.js'
import { receiveDelivery } from './receiver.service.js'

/** Largest webhook body accepted; larger ones are answered 413 before they are read. */
export const MAX_DELIVERY_BYTES = 1024 * 1024

/** Deliveries per alias: a burst of 30, then 10 per second. */
const BURST = 30
const PER_SECOND = 10

type Ctx = HandlerContext<typeof integrationReceiverRoutes.post>

/**
 * The webhook receiver, in a context of its own: bodies are read as raw bytes (signatures
 * are computed over them) whatever their Content-Type, and at most MAX_DELIVERY_BYTES.
 */
export async function receiverRoutes(app: FastifyInstance): Promise<void> {
  const limiter = new RateLimiter(BURST, PER_SECOND)
  await app.register(async (child) => {
    child.removeAllContentTypeParsers()
    child.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_DELIVERY_BYTES },
      (_request, body, done) => done(null, body),
    )
    const handle = async ({ db, secrets, params, request, reply }: Ctx): Promise<void> => {
      const wait = limiter.take(params.alias)
      if (wait > 0) throw new TooManyRequestsError('Too many deliveries to this alias', wait)
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const known = await receiveDelivery(
        { db, queue: app.tasks, secrets, log: request.log },
        { alias: params.alias, headers: request.headers, body, source: request.ip },
      )
      // An unknown alias answers as the compatible API does, and like any other unknown one.
      if (!known) await reply.status(200).send()
    }
    const r = integrationReceiverRoutes
    mount(child, r.get, handle)
    mount(child, r.post, handle)
    mount(child, r.options, handle)
  })
}
