export { systemRoutes } from './system.routes.js'
