import type { FastifyInstance } from 'fastify'
import { RetentionJob } from './retention-job.js'

export { RetentionJob, type SweepOutcome } from './retention-job.js'

/** Advisory lock key of the retention sweep ("flagret"), one sweep at a time per cluster. */
const RETENTION_LOCK = 0x666c6772

/**
 * Retention by age: a background job that removes task history and events past their
 * limits in small batches. It starts when the server is ready and stops, between two
 * batches, when it closes.
 */
export function retentionModule(app: FastifyInstance): RetentionJob {
  const { config } = app
  const job = new RetentionJob({
    db: app.db,
    dataDir: config.dataDir,
    log: app.log,
    settings: {
      taskRetentionDays: config.taskRetentionDays,
      eventRetentionDays: config.eventRetentionDays,
      intervalMs: config.retentionIntervalSeconds * 1000,
    },
    alone: async (work) =>
      app.hasDecorator('cluster') ? app.cluster.alone(RETENTION_LOCK, work) : (await work(), true),
    ...(app.hasDecorator('metrics') ? { metrics: app.metrics } : {}),
  })
  app.addHook('onReady', async () => {
    job.start()
  })
  app.addHook('preClose', async () => {
    await job.stop()
  })
  return job
}
