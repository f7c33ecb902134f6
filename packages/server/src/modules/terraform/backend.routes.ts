import { MAX_TERRAFORM_STATE_BYTES, terraformBackendRoutes } from '@flagman/contract'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { mount, type HandlerContext } from '../../platform/router.js'
import * as backend from './backend.service.js'
import type { AliasRow } from './alias-store.js'

type Ctx = HandlerContext<typeof terraformBackendRoutes.get>
type Operation = (ctx: Ctx, alias: AliasRow, body: Buffer) => Promise<backend.BackendAnswer>

async function send(reply: FastifyReply, answer: backend.BackendAnswer): Promise<void> {
  for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value)
  reply.status(answer.status)
  await reply.send(answer.body)
}

function lockIdOf(ctx: Ctx): string | undefined {
  const value = (ctx.request.query as Record<string, unknown> | undefined)?.ID
  return typeof value === 'string' ? value : undefined
}

/**
 * `/api/terraform/{alias}`: Terraform's and OpenTofu's `http` backend, in a context of its
 * own: bodies are raw bytes (state or lock information) whatever their Content-Type, up to
 * the state size limit, and LOCK and UNLOCK are methods of their own.
 */
export async function terraformBackendProtocolRoutes(app: FastifyInstance): Promise<void> {
  for (const method of ['LOCK', 'UNLOCK']) {
    if (!app.supportedMethods.includes(method)) app.addHttpMethod(method, { hasBody: true })
  }
  await app.register(async (child) => {
    child.removeAllContentTypeParsers()
    child.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MAX_TERRAFORM_STATE_BYTES },
      (_request, body, done) => done(null, body),
    )
    const handle =
      (operation: Operation) =>
      async (ctx: Ctx): Promise<void> => {
        const alias = await backend.authenticate(
          ctx.db,
          ctx.secrets,
          ctx.params.alias,
          ctx.request.headers.authorization,
        )
        if ('status' in alias) return send(ctx.reply, alias)
        const body = Buffer.isBuffer(ctx.request.body) ? ctx.request.body : Buffer.alloc(0)
        return send(ctx.reply, await operation(ctx, alias, body))
      }
    const store: Operation = (ctx, alias, body) => {
      const md5 = ctx.request.headers['content-md5']
      return backend.putState(
        ctx.db,
        alias,
        lockIdOf(ctx),
        body,
        typeof md5 === 'string' ? md5 : undefined,
      )
    }
    const r = terraformBackendRoutes
    mount(
      child,
      r.get,
      handle((ctx, alias) => backend.getState(ctx.db, alias)),
    )
    mount(child, r.post, handle(store))
    mount(child, r.put, handle(store))
    mount(
      child,
      r.remove,
      handle((ctx, alias) => backend.purgeState(ctx.db, alias, lockIdOf(ctx))),
    )
    mount(
      child,
      r.lock,
      handle((ctx, alias, body) => backend.lockState(ctx.db, alias, body)),
    )
    mount(
      child,
      r.unlock,
      handle((ctx, alias, body) => backend.unlockState(ctx.db, alias, body)),
    )
  })
}
