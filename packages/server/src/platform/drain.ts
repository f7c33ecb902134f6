import type { FastifyInstance, FastifyRequest } from 'fastify'

/** Paths a load balancer polls: they do not keep a draining instance open. */
const HEALTH_PATH = /^\/api\/health(\/|$)/
/**
 * Requests a drain waits for: not a balancer's health checks, and not websocket upgrades (a
 * console keeps one open for as long as it is shown; the close ends it and the console
 * connects again, to another instance).
 */
function counted(request: FastifyRequest): boolean {
  return !HEALTH_PATH.test(request.url) && request.headers.upgrade === undefined
}

/** A draining instance may close once nobody asked it anything for this long. */
const QUIET_MS = 1_000
const POLL_MS = 50

export interface DrainOptions {
  /** Longest the instance serves on after being asked to stop. */
  maxMs: number
  /** Stops taking new work (the instance's readiness turns 503). */
  stopAccepting: () => void
  /** Whether work this instance started is still going on (running tasks). */
  busy: () => boolean
}

/**
 * The first part of a graceful stop, before the server closes: the instance stops taking
 * tasks and answers not ready, so a load balancer moves its traffic away, and serves on
 * (closing each connection after its answer) until its running tasks have finished and no
 * request arrived for a second, or `maxMs` have passed. Requests never meet a closed port
 * while the balancer still sends them here.
 */
export class Drain {
  private draining = false
  private inFlight = 0
  private lastRequest = 0
  private cutShort = false

  constructor(app: FastifyInstance) {
    app.addHook('onRequest', async (request) => {
      if (!counted(request)) return
      this.inFlight += 1
      this.lastRequest = Date.now()
    })
    app.addHook('onResponse', async (request) => {
      if (!counted(request)) return
      this.inFlight = Math.max(0, this.inFlight - 1)
      this.lastRequest = Date.now()
    })
    app.addHook('onSend', async (_request, reply, payload) => {
      // Keep-alive connections to a draining instance are not reused for the next request.
      if (this.draining) reply.header('connection', 'close')
      return payload
    })
  }

  get isDraining(): boolean {
    return this.draining
  }

  /** Ends a drain under way at once (asked to stop a second time). */
  cut(): void {
    this.cutShort = true
  }

  async run(options: DrainOptions): Promise<void> {
    this.draining = true
    options.stopAccepting()
    if (options.maxMs <= 0) return
    const deadline = Date.now() + options.maxMs
    this.lastRequest = Math.max(this.lastRequest, Date.now())
    while (Date.now() < deadline && !this.cutShort) {
      const quiet = this.inFlight === 0 && Date.now() - this.lastRequest >= QUIET_MS
      if (quiet && !options.busy()) return
      await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    }
  }
}
