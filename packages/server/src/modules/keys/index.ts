export { keysRoutes } from './keys.routes.js'
