export { viewsRoutes } from './views.routes.js'
