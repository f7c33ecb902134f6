export { teamRoutes } from './team.routes.js'
