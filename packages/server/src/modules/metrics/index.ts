import { getMetrics } from '@flagman/contract'
import type { FastifyInstance } from 'fastify'
import { checkMetricsAccess } from './access.js'
import { ServerMetrics } from './server-metrics.js'

export type {
  AlertMetrics,
  LogMetrics,
  RealtimeMetrics,
  RetentionMetrics,
  ScheduleMetrics,
  TaskMetrics,
} from './hooks.js'
export { ServerMetrics } from './server-metrics.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's Prometheus metrics; modules report to it through its hooks. */
    metrics: ServerMetrics
  }
}

/**
 * Prometheus metrics: the registry of this instance (decorated as `app.metrics`, for the
 * task queue, the alerts, the websocket and the schedule clock to report to), the timing of
 * every HTTP answer, and `GET /api/metrics`. Registered before the other modules, so that
 * they find `app.metrics` and the timing hook covers every route.
 */
export function metricsModule(app: FastifyInstance): ServerMetrics {
  const metrics = new ServerMetrics({
    db: app.db,
    runnerTimeoutSeconds: app.config.runnerTimeoutSeconds,
  })
  app.decorate('metrics', metrics)

  app.addHook('onResponse', async (request, reply) => {
    // The route's pattern keeps the number of series bounded; addresses would not.
    metrics.httpDuration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    )
  })

  // Not mounted through the contract router: the metrics token is not a user's credential.
  app.route({
    method: getMetrics.method,
    url: getMetrics.path,
    handler: async (request, reply) => {
      await checkMetricsAccess(app.db, app.config.metricsToken, request, reply)
      const text = await metrics.registry.metrics()
      return reply.status(getMetrics.status).type(metrics.registry.contentType).send(text)
    },
  })
  return metrics
}
