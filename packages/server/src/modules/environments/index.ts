export { environmentsRoutes } from './environments.routes.js'
