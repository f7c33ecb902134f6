import { createClusterBus, type ClusterBus } from '@flagman/db'
import type { FastifyInstance } from 'fastify'
import { VERSION } from '../../version.js'
import { Cluster } from './cluster.js'
import { InstanceRegistry } from './instance-registry.js'

export { Cluster } from './cluster.js'
export { InstanceRegistry } from './instance-registry.js'

declare module 'fastify' {
  interface FastifyInstance {
    /** This server instance among those serving the database. */
    instance: InstanceRegistry
    cluster: Cluster
  }
}

/**
 * Creates this instance's place among the instances serving the database and the bus they
 * talk on; `startInstance` takes the place once the app is built. The task queue reaches the
 * others through `app.cluster`.
 */
export function instancesModule(app: FastifyInstance, host?: string): void {
  const bus: ClusterBus = createClusterBus(app.config.db, (message) => app.log.warn(message))
  const registry = new InstanceRegistry({
    db: app.db,
    log: app.log,
    version: VERSION,
    timeoutSeconds: app.config.instanceTimeoutSeconds,
    onLost: async (lost) => {
      const named = new Map(
        lost.map((row) => [row.id, `${row.id} on ${row.host} (pid ${row.pid})`]),
      )
      for (const row of lost) {
        app.log.warn(
          `Server instance ${named.get(row.id)} stopped answering; taking over its tasks`,
        )
      }
      await app.tasks.recoverOrphans(named)
    },
    onFenced: async () => app.tasks.abandonLocal(),
    ...(host ? { host } : {}),
  })
  app.decorate('instance', registry)
  app.decorate('cluster', new Cluster({ db: app.db, bus, registry, log: app.log }))
  // After the queue's own preClose (its tasks have ended): the place is given up last.
  app.addHook('onClose', async () => {
    await registry.deregister()
    await bus.close()
  })
}

/** Takes this instance's place (or refuses to start) and starts listening to the others. */
export async function startInstance(app: FastifyInstance): Promise<void> {
  await app.instance.register()
  await app.cluster.start(app.tasks.events, app.tasks)
}
