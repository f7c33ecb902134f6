export type * from './database.js'
export * from './dialect.js'
export * from './dialects/create-db.js'
export * from './migrate.js'
export * from './helpers.js'
export { WriteClock, scopeOfStatement, type WriteScope } from './dialects/write-clock.js'
export {
  createClusterBus,
  BUS_PAYLOAD_LIMIT,
  type ClusterBus,
  type BusHandler,
} from './dialects/cluster-bus.js'
